"""The remote engine end to end: `engine.server` serving the real CPU engine on a loopback port,
driven through `RemoteEngine` (and, for cancel, the raw contract).
"""

from __future__ import annotations

import base64
import io
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from PIL import Image

from core.engine import (
    Background,
    EngineError,
    EngineUnavailable,
    ImageEngine,
    NoGarmentFound,
    NoPersonFound,
    NoSubjectFound,
    collecting_notes,
)
from core.photos.images import decode_rgb
from engine import scene
from engine.remote import RemoteEngine, error_from_body
from engine.server import JobTable, create_app

REPO = Path(__file__).resolve().parents[3]
FIXTURES = Path(os.environ.get("FIXTURES_DIR", REPO.parent / "shared" / "fixtures" / "images"))
REJECTIONS = (NoPersonFound, NoGarmentFound, NoSubjectFound)


def fixture(folder: str, index: int = 0) -> Image.Image:
    paths = sorted((FIXTURES / folder).glob("*.jpg"))
    if not paths:
        pytest.skip(f"fixture photos not found in {FIXTURES / folder} (set FIXTURES_DIR)")
    return decode_rgb(paths[index % len(paths)].read_bytes())


def png_b64(image: Image.Image) -> str:
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return base64.b64encode(out.getvalue()).decode("ascii")


@dataclass
class Service:
    url: str
    engine: ImageEngine
    jobs: JobTable


@pytest.fixture(scope="module")
def service() -> Iterator[Service]:
    try:
        from engine.cpu import CpuEngine
    except ImportError as error:
        pytest.skip(f"the CPU engine is not available: {error}")
    engine = CpuEngine()
    app = create_app(engine, workers=2)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the engine server did not start")
        time.sleep(0.02)
    try:
        yield Service(f"http://127.0.0.1:{port}", engine, app.state.jobs)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture
def remote(service: Service) -> Iterator[RemoteEngine]:
    with RemoteEngine(service.url, timeout_seconds=60, poll_interval=0.05) as engine:
        yield engine


def test_health(service: Service) -> None:
    body = httpx.get(f"{service.url}/v1/health").json()
    assert body["status"] == "ok" and body["workers"] == 2


def test_white_background_keeps_size_and_reports_progress(remote: RemoteEngine) -> None:
    photo = fixture("people")
    reports: list[tuple[float, str]] = []
    result = remote.replace_background(
        photo, Background.builtin("white"), lambda f, s: reports.append((f, s))
    )
    assert result.size == photo.size
    assert result.mode == "RGB"
    assert reports, "progress was not forwarded"
    assert all(0.0 <= fraction <= 1.0 for fraction, _ in reports)
    assert [f for f, _ in reports] == sorted(f for f, _ in reports)


def test_the_engines_notes_travel_through_the_contract(remote: RemoteEngine) -> None:
    """A full-length person on a far-off square is framed from the knees up: the note the
    service's engine left reaches the caller's collecting_notes(); none on a room's floor."""
    person = decode_rgb((FIXTURES / "people-back" / "back-02.jpg").read_bytes())
    far = Background.photo(decode_rgb((FIXTURES / "scenes" / "scene-01.jpg").read_bytes()))
    near = Background.photo(decode_rgb((FIXTURES / "scenes" / "scene-02.jpg").read_bytes()))
    with collecting_notes() as notes:
        remote.replace_background(person, far)
    assert notes == [scene.NO_GROUND_NOTES[scene.NO_GROUND_FAR]]
    with collecting_notes() as notes:
        remote.replace_background(person, near)
    assert notes == []


def test_transparent_background_comes_back_rgba(remote: RemoteEngine) -> None:
    photo = fixture("garments")
    result = remote.replace_background(photo, Background.builtin("transparent"))
    assert result.mode == "RGBA"
    assert result.size == photo.size
    low, _high = result.getchannel("A").getextrema()
    assert isinstance(low, int) and low < 128, "nothing was cut out"


def test_body_swap(remote: RemoteEngine, service: Service) -> None:
    photo = fixture("people", 1)
    model = fixture("catalog-models")
    background = Background.photo(fixture("backgrounds"))
    result = remote.body_swap(photo, model, background)
    assert result.mode == "RGB"
    assert result.width >= 256 and result.height >= 256
    # Same output as the engine in-process would give (shape at least).
    local = service.engine.body_swap(photo, model, background)
    assert result.size == local.size


def test_rejection_comes_back_typed_with_its_message(
    remote: RemoteEngine, service: Service
) -> None:
    grey = Image.new("RGB", (768, 1024), (128, 128, 128))
    with pytest.raises(EngineError) as local:
        service.engine.replace_background(grey, Background.builtin("white"))
    assert isinstance(local.value, REJECTIONS)
    with pytest.raises(EngineError) as got:
        remote.replace_background(grey, Background.builtin("white"))
    assert type(got.value) is type(local.value)
    assert got.value.message == local.value.message
    assert got.value.retryable is False

    with pytest.raises(EngineError) as swap:
        remote.body_swap(grey, fixture("catalog-models"), None)
    assert isinstance(swap.value, REJECTIONS)
    assert swap.value.retryable is False and swap.value.message


def test_server_down_is_unavailable() -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    photo = Image.new("RGB", (768, 1024), (200, 10, 10))
    start = time.monotonic()
    with (
        RemoteEngine(f"http://127.0.0.1:{port}", timeout_seconds=3) as engine,
        pytest.raises(EngineUnavailable) as got,
    ):
        engine.replace_background(photo, Background.builtin("white"))
    assert got.value.retryable is True
    assert "unavailable" in got.value.message
    assert time.monotonic() - start < 10


def test_cancel_via_delete(service: Service) -> None:
    photo = fixture("people", 2)
    with httpx.Client(base_url=service.url, timeout=30) as http:
        submitted = http.post(
            "/v1/jobs",
            json={"operation": "replace_background", "photo": png_b64(photo),
                  "background": {"kind": "white"}},
        )
        assert submitted.status_code == 202
        job_id = submitted.json()["id"]
        assert http.delete(f"/v1/jobs/{job_id}").status_code == 204
        status = http.get(f"/v1/jobs/{job_id}").json()
        assert status["status"] == "cancelled"
        assert http.get(f"/v1/jobs/{job_id}/result").status_code == 409
        time.sleep(0.5)  # the worker thread must not flip it back when the engine stops
        assert http.get(f"/v1/jobs/{job_id}").json()["status"] == "cancelled"
        assert http.delete(f"/v1/jobs/{job_id}").status_code == 204  # idempotent
        assert http.get("/v1/jobs/nope").status_code == 404


def test_progress_callback_raising_cancels_the_job(service: Service) -> None:
    class GaveUp(Exception):
        pass

    def progress(_fraction: float, _stage: str) -> None:
        raise GaveUp()

    before = set(service.jobs.jobs)
    with (
        RemoteEngine(service.url, poll_interval=0.02) as engine,
        pytest.raises(GaveUp),
    ):
        engine.replace_background(fixture("people", 3), Background.builtin("white"), progress)
    (job_id,) = set(service.jobs.jobs) - before
    assert service.jobs.jobs[job_id].status == "cancelled"


def test_overall_timeout_cancels_and_is_retryable(service: Service) -> None:
    before = set(service.jobs.jobs)
    with (
        RemoteEngine(service.url, timeout_seconds=0.05, poll_interval=0.05) as engine,
        pytest.raises(EngineUnavailable) as got,
    ):
        engine.replace_background(fixture("people", 4), Background.builtin("white"))
    assert "did not finish" in got.value.message
    (job_id,) = set(service.jobs.jobs) - before
    assert service.jobs.jobs[job_id].status == "cancelled"


def test_invalid_request(service: Service) -> None:
    bad = httpx.post(f"{service.url}/v1/jobs", json={"operation": "replace_background",
                                                     "photo": "not base64!",
                                                     "background": {"kind": "white"}})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_request"
    unknown = httpx.post(f"{service.url}/v1/jobs", json={"operation": "upscale", "photo": "x"})
    assert unknown.status_code == 400
    assert unknown.json()["error"]["code"] == "invalid_request"


def test_idempotent_submit(service: Service) -> None:
    body = {"operation": "replace_background", "photo": png_b64(fixture("garments", 1)),
            "background": {"kind": "transparent"}}
    headers = {"Idempotency-Key": "same-key-twice"}
    with httpx.Client(base_url=service.url, timeout=30) as http:
        first = http.post("/v1/jobs", json=body, headers=headers).json()["id"]
        second = http.post("/v1/jobs", json=body, headers=headers).json()["id"]
        assert first == second
        http.delete(f"/v1/jobs/{first}")


@pytest.mark.parametrize(
    ("body", "expected", "retryable"),
    [
        ({"code": "no_person", "message": "m", "retryable": False}, NoPersonFound, False),
        ({"error": {"code": "no_subject", "message": "m"}}, NoSubjectFound, False),
        ({"code": "unavailable", "message": "m", "retryable": True}, EngineUnavailable, True),
        ({"code": "internal", "message": "m", "retryable": True}, EngineUnavailable, True),
        ({"code": "invalid_request", "message": "m"}, EngineError, False),
        ({"code": "brand_new", "message": "m", "retryable": False}, EngineError, False),
        ({"code": "brand_new", "message": "m", "retryable": True}, EngineUnavailable, True),
        ("garbage", EngineUnavailable, True),
    ],
)
def test_error_mapping(body: object, expected: type[EngineError], retryable: bool) -> None:
    error = error_from_body(body, "fallback")
    assert type(error) is expected
    assert error.retryable is retryable
