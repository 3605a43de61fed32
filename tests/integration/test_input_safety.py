"""Inputs an attacker would send, against the running stack: a memory bomb swapped in after the
upload was checked, GIFs, 1x1 and empty files, and content types chosen by the uploader."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PIL import Image
from sqlalchemy import select, update
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.imaging import ImagingActivities
from core.contracts.generation import ImagingInput
from core.db import make_database, make_session_factory
from core.enums import GenerationKind
from core.models.base import new_id
from core.models.generations import UploadedFile
from core.photos.analysis import SEEN_FROM_BEHIND, SEEN_FROM_SIDE
from core.photos.images import encode_jpeg
from core.settings import Settings
from core.storage import Storage
from ops.stack import Stack
from ops.worker import build_engine
from tests.support.api_client import Guest
from tests.support.helpers import make_account, upload
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack
from tests.unit.test_images import png_header_only

# Small, so an oversized upload is quick to make; the fixture photos are 80-400 KB.
LIMIT = 1024 * 1024


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("inputs"), max_upload_bytes=LIMIT) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


def peak_rss_mb(pid: int) -> float:
    """The process's high-water mark of resident memory (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM")


def presigned(
    guest: Guest, filename: str = "photo.jpg", mime: str = "image/jpeg"
) -> dict[str, str]:
    response = guest.get("/api/v1/request/presignedUrl", filename=filename, mimeType=mime)
    assert response.status_code == 200, response.text
    target: dict[str, str] = response.json()["data"]
    return target


def background_id(guest: Guest) -> str:
    items = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18).json()
    return str(items["data"]["items"][1]["_id"])  # "white"


def test_a_bomb_swapped_in_after_the_check_fails_at_once_and_costs_nothing(
    running: Stack, stack: Settings
) -> None:
    """The attack: upload a good photo, submit, then PUT a 20000x20000 PNG through the same
    (still valid) presigned URL before the engine reads it."""
    guest = Guest(stack.app_url)
    target = presigned(guest)
    photo = fixture_images("people")[0].read_bytes()
    assert httpx.put(target["url"], content=photo,
                     headers={"Content-Type": "image/jpeg"}).status_code == 200

    # Hold the imaging step back so the swap lands between the check and the engine.
    running.stop_process("imaging")
    submitted = guest.submit("burstreplace", [target["key"]], backgroundId=background_id(guest))
    assert submitted.status_code == 200, submitted.text
    task_ids = submitted.json()["data"]["taskIds"]
    # Wait until the workflow has verified and charged it: the swap must reach the engine.
    deadline = time.monotonic() + 30
    while guest.credits() == guest.start_credits and time.monotonic() < deadline:
        time.sleep(0.05)
    assert guest.credits() == guest.start_credits - 1
    # Padded to the photo's very size (readers ignore what follows IEND): only the ETag differs.
    bomb = png_header_only(20000, 20000)
    bomb += b"\0" * (len(photo) - len(bomb))
    assert len(bomb) == len(photo)
    # The URL takes only the declared type; the label is all storage checks, not the bytes.
    assert httpx.put(target["url"], content=bomb,
                     headers={"Content-Type": "image/png"}).status_code == 403
    assert httpx.put(target["url"], content=bomb,
                     headers={"Content-Type": "image/jpeg"}).status_code == 200

    imaging = running.start_imaging()
    started = time.monotonic()
    (task,) = guest.wait(task_ids, timeout=120)
    assert task["status"] == "failed"
    assert "changed after it was checked" in (task["error"] or "")
    # Non-retryable: no four attempts with backoff (1 + 2 + 4 s) before failing.
    assert time.monotonic() - started < 20
    service = guest.wait_generation(submitted.json()["data"]["serviceId"])
    assert service["status"] == "failed"
    assert guest.credits() == guest.start_credits  # refunded in full
    peak = peak_rss_mb(imaging.pid)
    print(f"imaging worker peak RSS after the bomb: {peak:.0f} MB")
    assert peak < 1500, f"the imaging worker reached {peak:.0f} MB"


def test_gif_1x1_and_empty_uploads_get_422_and_charge_nothing(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    gif = io.BytesIO()
    Image.new("P", (400, 400)).save(gif, "GIF")
    cases = {
        "gif": (gif.getvalue(), "use JPEG, PNG or WebP"),
        "tiny": (encode_jpeg(Image.new("RGB", (1, 1))), "at least 256 pixels"),
        "empty": (b"", "is empty"),
    }
    for name, (data, reason) in cases.items():
        target = presigned(guest, f"{name}.jpg")
        assert httpx.put(target["url"], content=data,
                         headers={"Content-Type": "image/jpeg"}).status_code == 200
        thumb = guest.post("/api/v1/util/createThumbnail", json={"key": target["key"]})
        assert thumb.status_code == 422, (name, thumb.text)
        assert reason in thumb.json()["message"], (name, thumb.text)
        submit = guest.submit("burstreplace", [target["key"]], backgroundId=background_id(guest))
        assert submit.status_code == 422, (name, submit.text)
        assert reason in submit.json()["message"]
    assert guest.credits() == guest.start_credits
    assert guest.generation_count() == 0


def test_uploads_are_served_with_the_type_we_found(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    target = presigned(guest, "page.html", mime="image/png")
    # The key carries the declared type's extension: rclone types objects by it after a restart.
    assert target["key"].endswith("/page.html.png")
    photo = fixture_images("people")[1].read_bytes()  # a JPEG, declared as PNG
    # Storage refuses any Content-Type but the declared one: the uploader cannot choose HTML.
    as_html = httpx.put(target["url"], content=photo, headers={"Content-Type": "text/html"})
    assert as_html.status_code == 403
    assert httpx.put(target["url"], content=photo).status_code == 403
    assert httpx.put(target["url"], content=photo,
                     headers={"Content-Type": "image/png"}).status_code == 200
    thumb = guest.post("/api/v1/util/createThumbnail", json={"key": target["key"]})
    assert thumb.status_code == 200, thumb.text
    served = httpx.get(thumb.json()["data"]["url"])
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/jpeg"  # what it is, not what was claimed
    assert served.headers["x-content-type-options"] == "nosniff"
    thumbnail = httpx.get(thumb.json()["data"]["thumbnailUrl"])
    assert thumbnail.headers["x-content-type-options"] == "nosniff"


def test_files_sent_with_the_submit_are_stored_as_what_they_are(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    photo = fixture_images("people")[2].read_bytes()  # a JPEG, sent labelled as HTML
    files = {"inputFiles": ("page.html", photo, "text/html")}
    submitted = guest.post("/imageedit/service/burstreplace", data={"backgroundId": "white"},
                           files=files)
    assert submitted.status_code == 200, submitted.text
    (task,) = guest.wait(submitted.json()["data"]["taskIds"])
    assert task["inputKey"].endswith("/page.html.jpg")
    stored = Storage(stack).stat(task["inputKey"])
    assert stored is not None and stored.content_type == "image/jpeg"


def test_upload_urls_are_short_lived_and_bound_to_a_declared_size(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    url = presigned(guest)["url"]
    expires = int(httpx.URL(url).params["X-Amz-Expires"])
    assert 60 <= expires <= 15 * 60

    photo = fixture_images("people")[0].read_bytes()
    response = guest.get("/api/v1/request/presignedUrl", filename="p.jpg",
                         mimeType="image/jpeg", size=len(photo))
    assert response.status_code == 200, response.text
    sized = response.json()["data"]["url"]
    jpeg = {"Content-Type": "image/jpeg"}
    bomb = png_header_only(20000, 20000)
    # Another length, or a body of unknown length, is refused by storage itself.
    assert httpx.put(sized, content=bomb, headers=jpeg).status_code == 403
    assert httpx.put(sized, content=photo + b"\0", headers=jpeg).status_code == 403
    assert httpx.put(sized, content=iter([photo]), headers=jpeg).status_code == 403
    assert httpx.put(sized, content=photo, headers=jpeg).status_code == 200


def test_oversize_and_empty_are_named_with_the_real_size_and_limit(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    noise = io.BytesIO()
    Image.frombytes("RGB", (1000, 850), os.urandom(1000 * 850 * 3)).save(noise, "PNG")
    data = noise.getvalue()
    expected = f"The image is {len(data) / 2**20:.1f} MB; the limit is 1.0 MB."
    assert expected != "The image is 1.0 MB; the limit is 1.0 MB."

    # Declared up front: refused before a byte is sent.
    declared = guest.get("/api/v1/request/presignedUrl", filename="big.png",
                         mimeType="image/png", size=len(data))
    assert declared.status_code == 422 and declared.json() == {"message": expected}
    empty = guest.get("/api/v1/request/presignedUrl", filename="e.png", mimeType="image/png",
                      size=0)
    assert empty.status_code == 422 and empty.json() == {"message": "The image is empty."}

    # Not declared: uploaded, then refused with its real size, though only the limit is read.
    target = presigned(guest, "big.png", mime="image/png")
    assert httpx.put(target["url"], content=data,
                     headers={"Content-Type": "image/png"}).status_code == 200
    thumb = guest.post("/api/v1/util/createThumbnail", json={"key": target["key"]})
    assert thumb.status_code == 422 and thumb.json() == {"message": expected}
    submit = guest.submit("burstreplace", [target["key"]], backgroundId=background_id(guest))
    assert submit.status_code == 422 and submit.json() == {"message": expected}
    assert guest.credits() == guest.start_credits and guest.generation_count() == 0


def imaging_refusal(settings: Settings, data: bytes) -> ApplicationError:
    """Run the imaging step on `data` as an input whose size and ETag were never pinned (a task
    recorded before the pins existed): its own checks must refuse the file before decoding."""
    sessions = make_session_factory(make_database(settings.resolved_database_url))
    storage = Storage(settings)
    key = f"uploads/attacker/{new_id()}/photo.jpg"
    storage.put_bytes(key, data, "image/jpeg")
    imaging = ImagingActivities(sessions, storage, build_engine(settings), settings)
    inp = ImagingInput(generation_id=new_id(), task_id=new_id(),
                       service=GenerationKind.BURST_REPLACE,
                       input_key=key, model_key=None, background_kind="white",
                       background_key=None)
    with pytest.raises(ApplicationError) as refused:
        ActivityEnvironment().run(imaging.run_imaging, inp)
    return refused.value


def test_the_imaging_step_refuses_a_gif_and_a_bomb_before_decoding(stack: Settings) -> None:
    gif = io.BytesIO()
    Image.new("P", (400, 400)).save(gif, "GIF")
    refused = imaging_refusal(stack, gif.getvalue())
    assert (refused.type, refused.non_retryable) == ("InputRejected", True)
    assert refused.message == "The image is a GIF image; use JPEG, PNG or WebP."

    before = peak_rss_mb(os.getpid())
    refused = imaging_refusal(stack, png_header_only(20000, 20000))
    assert (refused.type, refused.non_retryable) == ("InputRejected", True)
    assert "far too many pixels; the limit is 40 megapixels" in refused.message
    # Decoded, its 400 million pixels would take 400 MB at least.
    assert peak_rss_mb(os.getpid()) - before < 100


def run_imaging_on(
    settings: Settings, data: bytes, service: GenerationKind,
    analysis: dict[str, object] | None = None,
) -> ApplicationError:
    """Run the imaging step on `data` stored as an upload (with `analysis` stored on it when
    given, as the upload's own analysis would be) and return how it refused."""
    sessions = make_session_factory(make_database(settings.resolved_database_url))
    storage = Storage(settings)
    account = make_account(sessions, free=1)
    key = upload(sessions, storage, account, data)
    if analysis is not None:
        with sessions.begin() as session:
            session.execute(
                update(UploadedFile).where(UploadedFile.key == key).values(analysis=analysis)
            )
    imaging = ImagingActivities(sessions, storage, build_engine(settings), settings)
    swap = service == GenerationKind.BODY_SWAP
    inp = ImagingInput(generation_id=new_id(), task_id=new_id(), service=service,
                       input_key=key, model_key="catalog/never-read.jpg" if swap else None,
                       background_kind=None if swap else "white", background_key=None)
    with pytest.raises(ApplicationError) as refused:
        ActivityEnvironment().run(imaging.run_imaging, inp)
    with sessions() as session:
        stored = session.execute(
            select(UploadedFile.analysis).where(UploadedFile.key == key)
        ).scalar_one()
    assert stored is not None, "the imaging step keeps the analysis for the upload"
    return refused.value


def test_the_imaging_step_refuses_a_swap_from_behind_that_was_never_analysed(
    stack: Settings,
) -> None:
    """A submit that came before the upload's analysis (no createThumbnail): the imaging step
    analyses the photo itself, refuses a model swap of a person seen from behind with the
    reason (the task is then refunded), and never reaches the engine (the model's key is
    never read)."""
    for name in ("back-01.jpg", "back-03.jpg"):
        photo = (FIXTURES / "people-back" / name).read_bytes()
        refused = run_imaging_on(stack, photo, GenerationKind.BODY_SWAP)
        assert refused.type == "EngineRejected" and refused.non_retryable, name
        assert refused.message in (SEEN_FROM_BEHIND, SEEN_FROM_SIDE), (name, refused.message)


def test_the_imaging_step_uses_the_stored_analysis_instead_of_repeating_it(
    stack: Settings,
) -> None:
    """The upload's stored analysis decides: a front-facing person whose stored analysis (made
    up here) refuses a new background is refused with exactly that stored reason."""
    stored = {"kind": "person", "people": 2, "view": "front", "face": "full", "garment": None,
              "can": {"burstreplace": {"ok": False, "reason": "The stored analysis said no."},
                      "bodySwap": {"ok": False, "reason": "The stored analysis said no."}}}
    photo = fixture_images("people")[0].read_bytes()
    refused = run_imaging_on(stack, photo, GenerationKind.BURST_REPLACE, stored)
    assert refused.message == "The stored analysis said no."
    assert refused.type == "EngineRejected" and refused.non_retryable


def test_a_near_unchanged_model_swap_is_refused_and_refunded(stack: Settings) -> None:
    """Past the upload's analysis (stored here as an older analysis might have left it: one
    person, the whole face), the engine's own gate still measures the output: 049205_0 with
    model-6 would change no pixel that counts by more than 17 levels, so the task fails with
    the reason and the credit comes back."""
    sessions = make_session_factory(make_database(stack.resolved_database_url))
    guest = Guest(stack.app_url)
    key = guest.upload((FIXTURES / "people" / "049205_0.jpg").read_bytes())
    allowed = {"kind": "person", "people": 1, "view": "front", "face": "full", "garment": None,
               "can": {"burstreplace": {"ok": True, "reason": None},
                       "bodySwap": {"ok": True, "reason": None}}}
    with sessions.begin() as session:
        stored = session.execute(
            update(UploadedFile).where(UploadedFile.key == key).values(analysis=allowed)
        )
        assert stored.rowcount == 1
    submitted = guest.submit("bodySwap", [key], modelId="model-6")
    assert submitted.status_code == 200, submitted.text
    (task,) = guest.wait(submitted.json()["data"]["taskIds"], timeout=120)
    assert task["status"] == "failed" and not task["outputs"], task
    assert "would look like the original" in (task["error"] or ""), task
    assert guest.wait_generation(submitted.json()["data"]["serviceId"])["status"] == "failed"
    assert guest.credits() == guest.start_credits  # refunded in full
