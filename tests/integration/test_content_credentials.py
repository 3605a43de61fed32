"""Content Credentials (issue 37) on every copy of an image a user can take away, against the
running stack: the web app's single image, the ZIP, the public API (a live key and a test key),
the CLI, the public showcase, a re-render and an operator's retouched version. Each file is read
by c2pa's own reader with its default context (which trusts none of our chains): the manifest
validates, the only status is the development chain's untrusted signer, and it states the right
action, digital source type and ingredients; the API's summary names that very file; the XMP
carries the IPTC digital source type; and POST /api/v1/provenance says it is ours and which
generation made it. Then the check's other verdicts: a changed byte, a rewritten generation id, a
re-saved copy, another signer's credentials, and what is not an image.

A model swap of two photos in the web app, a background replace by the CLI, one with a test
key and a transparent one (a PNG) through the public API cover every path, on the run's shared
stack.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image

from core.db import SessionFactory
from core.enums import GenerationKind, UserRole
from core.provenance.chain import load_credentials
from core.provenance.manifest import (
    COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA,
    TRAINED_ALGORITHMIC_MEDIA,
    EngineIdentity,
    ProvenanceFacts,
)
from core.provenance.signing import ContentSigner
from core.settings import Settings
from ops.admin import set_role
from ops.stack import Stack
from tests.integration.test_cli import environment
from tests.integration.test_library import sign_up_with_fingerprint
from tests.integration.test_public_api import bearer, new_key, wait_done
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.paths import REPO, fixture_images
from tests.support.provenance import c2pa_report
from tests.support.signed_files import assert_signed, check, mime_of, sha256

CREATED = ("c2pa.created", TRAINED_ALGORITHMIC_MEDIA)
EDITED = ("c2pa.edited", COMPOSITE_WITH_TRAINED_ALGORITHMIC_MEDIA)


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack: everything here belongs to this module's own accounts (the one
    showcase pick is withdrawn again)."""
    return shared_stack.settings


def fetch(url: str) -> bytes:
    got = httpx.get(url, timeout=60)
    assert got.status_code == 200, url
    return got.content


@pytest.fixture(scope="module")
def shop(stack: Settings, api: httpx.Client, db: SessionFactory) -> dict[str, Any]:
    """A signed-in user using the web app (a Guest client carrying the user's token), with a
    live and a test API key."""
    fingerprint = uuid.uuid4().hex
    web = Guest(stack.app_url, fingerprint)
    web.token = sign_up_with_fingerprint(
        api, db, f"shop-{uuid.uuid4().hex[:8]}@example.com", fingerprint)
    session = bearer(web.token)
    made = api.post("/api/v1/api-keys", json={"name": "sandbox", "mode": "test"},
                    headers=session)
    assert made.status_code == 201, made.text
    return {"web": web, "live": new_key(api, session), "test": made.json()["data"]["secret"]}


@pytest.fixture(scope="module")
def swap(shop: dict[str, Any]) -> dict[str, Any]:
    """A finished model swap of two photos on a catalog background, made in the web app; with
    what was uploaded, so the photo ingredients can be checked against it."""
    web: Guest = shop["web"]
    photos = [path.read_bytes() for path in fixture_images("people")[:2]]
    keys = [web.upload(photo) for photo in photos]
    model = web.get("/api/v1/model", pageNum=1, pageSize=1,
                    currentProduct="bodySwap").json()["data"]["items"][0]
    model_id = model["_id"]
    backgrounds = web.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background = backgrounds.json()["data"]["items"][2]
    background_id = background["_id"]
    submitted = web.submit("bodySwap", keys, modelId=model_id, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    data = submitted.json()["data"]
    tasks = web.wait(data["taskIds"])
    assert [t["status"] for t in tasks] == ["completed", "completed"], tasks
    return {"serviceId": data["serviceId"], "tasks": tasks, "photos": photos,
            "model": model_id, "background": background_id,
            "names": {"model": model["name"], "background": background["name"]}}


def swap_ingredients(swap: dict[str, Any], index: int) -> set[tuple[str, str, str]]:
    return {("photo", f"sha256:{sha256(swap['photos'][index])}", "inputTo"),
            ("model", f"catalog:{swap['model']}", "inputTo"),
            ("background", f"catalog:{swap['background']}", "componentOf")}


@pytest.fixture(scope="module")
def cli_run(stack: Settings, shop: dict[str, Any],
            tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A background replace on white made by the `metamodel` CLI with the live key, as a shop
    runs it: the photo file and the downloaded output."""
    folder = tmp_path_factory.mktemp("cli-credentials")
    photo = folder / "look.jpg"
    photo.write_bytes(fixture_images("people")[2].read_bytes())
    out = folder / "out"
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "generate", "--service", "burstreplace",
         "--background", "white", str(photo), "--out", str(out)],
        cwd=REPO, env=environment(stack, shop["live"]), capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    state = json.loads((out / ".metamodel-state.json").read_text())
    (entry,) = state["photos"].values()
    return {"photo": photo.read_bytes(), "output": (out / "look.jpg").read_bytes(),
            "generationId": entry["generation_id"]}


def white_ingredients(photo: bytes) -> set[tuple[str, str, str]]:
    return {("photo", f"sha256:{sha256(photo)}", "parentOf"),
            ("background", "catalog:white", "componentOf")}


def test_the_web_apps_images_and_the_zip_carry_valid_credentials(
    api: httpx.Client, shop: dict[str, Any], swap: dict[str, Any]
) -> None:
    web: Guest = shop["web"]
    files = {}
    for index, task in enumerate(swap["tasks"]):
        data = fetch(task["outputs"][0]["url"])
        files[task["taskId"]] = data
        assert_signed(api, data, task["contentCredentials"], CREATED,
                      swap_ingredients(swap, index), swap["serviceId"], task["taskId"])
    # The catalog entries are titled by the names people chose them by.
    titles = {i["kind"]: i["title"] for i in swap["tasks"][0]["contentCredentials"]["ingredients"]}
    assert {kind: titles[kind] for kind in ("model", "background")} == swap["names"]
    # The generation's own view says the same.
    service = web.get(f"/imageedit/service/{swap['serviceId']}").json()["data"]
    assert {t["taskId"]: t["contentCredentials"]["sha256"] for t in service["tasks"]} == {
        task_id: sha256(data) for task_id, data in files.items()}

    zipped = web.post("/imageedit/service/download", json={"taskIds": list(files)})
    assert zipped.status_code == 200, zipped.text
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    members = [name for name in archive.namelist() if "-edited" not in name]
    assert len(members) == 2
    for name, (index, task) in zip(sorted(members), enumerate(swap["tasks"]), strict=True):
        data = archive.read(name)
        assert task["taskId"][:8] in name and data == files[task["taskId"]]
        assert_signed(api, data, task["contentCredentials"], CREATED,
                      swap_ingredients(swap, index), swap["serviceId"], task["taskId"])


def test_the_public_api_with_a_live_key_and_the_cli(
    api: httpx.Client, shop: dict[str, Any], swap: dict[str, Any], cli_run: dict[str, Any]
) -> None:
    # The web app's generation, read with the same account's live key.
    seen = api.get(f"/api/v1/generations/{swap['serviceId']}", headers=bearer(shop["live"]))
    assert seen.status_code == 200, seen.text
    for index, image in enumerate(seen.json()["data"]["images"]):
        data = fetch(image["outputs"][0]["url"])
        assert_signed(api, data, image["contentCredentials"], CREATED,
                      swap_ingredients(swap, index), swap["serviceId"], image["id"])

    # The CLI's download, and the API's summary of the same image.
    generation = wait_done(api, shop["live"], cli_run["generationId"])
    (image,) = generation["images"]
    assert generation["livemode"] is True
    assert_signed(api, cli_run["output"], image["contentCredentials"], EDITED,
                  white_ingredients(cli_run["photo"]), cli_run["generationId"], image["id"])


def test_a_transparent_background_is_a_signed_png(
    api: httpx.Client, shop: dict[str, Any]
) -> None:
    """A cut-out on a transparent background is delivered as a PNG: signed the same way, its
    XMP in an iTXt chunk, and a changed byte in its pixel data is found."""
    photo = fixture_images("people")[3].read_bytes()
    sent = api.post("/api/v1/uploads", headers=bearer(shop["live"]),
                    files={"file": ("cutout.jpg", photo, "image/jpeg")})
    assert sent.status_code == 201, sent.text
    made = api.post("/api/v1/generations", headers=bearer(shop["live"]), json={
        "service": "burstreplace", "inputs": [sent.json()["data"]["key"]],
        "backgroundId": "transparent"})
    assert made.status_code == 201, made.text
    done = wait_done(api, shop["live"], made.json()["data"]["id"])
    (image,) = done["images"]
    assert image["status"] == "completed", done
    data = fetch(image["outputs"][0]["url"])
    assert mime_of(data) == "image/png"
    assert_signed(api, data, image["contentCredentials"], EDITED,
                  {("photo", f"sha256:{sha256(photo)}", "parentOf"),
                   ("background", "catalog:transparent", "componentOf")},
                  done["id"], image["id"])
    changed = bytearray(data)
    changed[len(changed) // 2] ^= 0x01  # inside the IDAT data (the manifest sits before it)
    verdict = verdict_of(api, bytes(changed))
    assert verdict["verdict"] == "altered" and verdict["pixelsChanged"] is True, verdict


def test_a_test_keys_image_is_signed_as_test_mode_with_its_watermark(
    api: httpx.Client, shop: dict[str, Any], cli_run: dict[str, Any]
) -> None:
    secret = shop["test"]
    sent = api.post("/api/v1/uploads", headers=bearer(secret),
                    files={"file": ("look.jpg", cli_run["photo"], "image/jpeg")})
    assert sent.status_code == 201, sent.text
    made = api.post("/api/v1/generations", headers=bearer(secret), json={
        "service": "burstreplace", "inputs": [sent.json()["data"]["key"]],
        "backgroundId": "white"})
    assert made.status_code == 201, made.text
    done = wait_done(api, secret, made.json()["data"]["id"])
    assert done["status"] == "completed" and done["livemode"] is False, done
    (image,) = done["images"]
    data = fetch(image["outputs"][0]["url"])
    assert_signed(api, data, image["contentCredentials"], EDITED,
                  white_ingredients(cli_run["photo"]), done["id"], image["id"], test_mode=True)
    # The watermark is in the signed pixels: the same photo on the same background, live,
    # differs from it over a fair share of the image.
    marked, clean = (np.asarray(Image.open(io.BytesIO(d)).convert("RGB")).astype(int)
                     for d in (data, cli_run["output"]))
    changed = (np.abs(marked - clean).max(axis=2) > 40).mean()
    assert 0.01 < changed < 0.5, changed


def test_a_rerender_names_the_image_it_was_made_from(
    api: httpx.Client, shop: dict[str, Any], swap: dict[str, Any]
) -> None:
    web: Guest = shop["web"]
    source = swap["tasks"][1]
    made = web.post(f"/api/v1/task/{source['taskId']}/placement",
                    json={"x": 0.1, "y": 0.0, "scale": 0.8})
    assert made.status_code == 200, made.text
    (task,) = web.wait([made.json()["data"]["taskId"]])
    assert task["status"] == "completed" and task["sourceTaskId"] == source["taskId"], task
    data = fetch(task["outputs"][0]["url"])
    source_sha = sha256(fetch(source["outputs"][0]["url"]))
    assert source_sha == source["contentCredentials"]["sha256"]
    report = assert_signed(
        api, data, task["contentCredentials"], CREATED,
        swap_ingredients(swap, 1) | {("source", f"sha256:{source_sha}", "inputTo")},
        swap["serviceId"], task["taskId"])
    manifest = report["manifests"][report["active_manifest"]]
    ours = next(a["data"] for a in manifest["assertions"]
                if a["label"] == "com.metamodel.generation")
    assert ours["rerenderOf"] == source["taskId"]


def operator(api: httpx.Client, db: SessionFactory) -> dict[str, str]:
    email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
    token = sign_up(api, db, email)
    assert set_role(db, email, UserRole.ADMIN)
    return bearer(token)


def test_the_showcase_and_a_retouched_version_carry_valid_credentials(
    api: httpx.Client, db: SessionFactory, shop: dict[str, Any], swap: dict[str, Any]
) -> None:
    web: Guest = shop["web"]
    admin = operator(api, db)
    task = swap["tasks"][0]
    output = fetch(task["outputs"][0]["url"])

    # The showcase: the owner shares, an operator picks; its image is the signed output.
    shared = web.post("/imageedit/service/share", json={"taskId": task["taskId"], "shared": True})
    assert shared.status_code == 200, shared.text
    picked = api.put(f"/api/v1/admin/showcase/{task['taskId']}", json={"showcased": True},
                     headers=admin)
    assert picked.status_code == 200, picked.text
    try:
        page = api.get("/imageedit/service/showCaseFromS3",
                       params={"serviceType": "bodySwap", "pageSize": 100}).json()["data"]
        pair = next(item for item in page["items"] if item["taskId"] == task["taskId"])
        shown = fetch(pair["outputUrl"])
        assert shown == output
        assert_signed(api, shown, task["contentCredentials"], CREATED,
                      swap_ingredients(swap, 0), swap["serviceId"], task["taskId"])
    finally:
        web.post("/imageedit/service/share", json={"taskId": task["taskId"], "shared": False})

    # An operator's retouch (a JPEG they exported): signed as an edit of the output.
    retouch = io.BytesIO()
    Image.open(io.BytesIO(output)).convert("RGB").save(retouch, "JPEG", quality=90)
    attached = api.post(f"/api/v1/admin/edits/{task['taskId']}", headers=admin,
                        files={"file": ("retouch.jpg", retouch.getvalue(), "image/jpeg")})
    assert attached.status_code == 200, attached.text
    mine = web.get(f"/imageedit/service/{swap['serviceId']}").json()["data"]
    view = next(t for t in mine["tasks"] if t["taskId"] == task["taskId"])
    edited = fetch(view["edited"]["url"])
    summary = view["editedCredentials"]
    assert summary is not None and summary["engine"].startswith("retouch")
    parent = {("source", f"sha256:{sha256(output)}", "parentOf")}
    report = assert_signed(api, edited, summary, EDITED, parent, swap["serviceId"],
                           task["taskId"], xmp=False)
    actions = [a["action"] for a in next(
        a["data"]["actions"] for a in report["manifests"][report["active_manifest"]]["assertions"]
        if a["label"] == "c2pa.actions.v2")]
    assert actions == ["c2pa.opened", "c2pa.edited"]
    # The output's own credentials are untouched, and the ZIP carries the retouch signed too.
    assert view["contentCredentials"]["sha256"] == sha256(output)
    zipped = web.post("/imageedit/service/download", json={"taskIds": [task["taskId"]]})
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    (edited_name,) = [name for name in archive.namelist() if "-edited" in name]
    assert archive.read(edited_name) == edited

    # A WebP retouch is kept as before, unsigned.
    webp = io.BytesIO()
    Image.open(io.BytesIO(output)).convert("RGB").save(webp, "WEBP")
    attached = api.post(f"/api/v1/admin/edits/{task['taskId']}", headers=admin,
                        files={"file": ("retouch.webp", webp.getvalue(), "image/webp")})
    assert attached.status_code == 200, attached.text
    assert attached.json()["data"]["editedCredentials"] is None
    assert fetch(attached.json()["data"]["edited"]["url"]) == webp.getvalue()


@pytest.fixture(scope="module")
def signed_output(swap: dict[str, Any]) -> bytes:
    return fetch(swap["tasks"][1]["outputs"][0]["url"])


def verdict_of(api: httpx.Client, data: bytes) -> dict[str, Any]:
    answer = check(api, data)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()["data"]
    return body


def test_a_changed_byte_is_reported_as_altered(
    api: httpx.Client, signed_output: bytes
) -> None:
    changed = bytearray(signed_output)
    middle = len(changed) // 2
    while changed[middle] in (0x00, 0xFE, 0xFF):  # a scan byte, never a marker's
        middle += 1
    changed[middle] ^= 0x01
    verdict = verdict_of(api, bytes(changed))
    assert verdict["verdict"] == "altered" and verdict["pixelsChanged"] is True, verdict
    assert verdict["ours"] is True and "assertion.dataHash.mismatch" in verdict["validationCodes"]
    assert "changed after it was signed" in verdict["message"]


def test_a_generation_id_rewritten_in_our_manifest_is_invalid(
    api: httpx.Client, signed_output: bytes, swap: dict[str, Any]
) -> None:
    """Someone edits the generation named in our credentials: the signature no longer covers
    the assertion, and the check names no generation at all."""
    at = signed_output.rfind(swap["serviceId"].encode())
    assert at > 0
    forged = bytearray(signed_output)
    forged[at] ^= 0x01
    verdict = verdict_of(api, bytes(forged))
    assert verdict["verdict"] == "invalid" and verdict["ours"] is False, verdict
    assert verdict["generationId"] is None and verdict["credentials"] is None
    assert "assertion.hashedURI.mismatch" in verdict["validationCodes"]


def test_a_resaved_copy_has_no_credentials(api: httpx.Client, signed_output: bytes) -> None:
    resaved = io.BytesIO()
    Image.open(io.BytesIO(signed_output)).save(resaved, "JPEG", quality=95)
    verdict = verdict_of(api, resaved.getvalue())
    assert verdict["verdict"] == "none" and verdict["hasCredentials"] is False, verdict
    assert verdict["credentials"] is None and verdict["generationId"] is None
    # Sent as a form's file, the same answer.
    form = api.post("/api/v1/provenance",
                    files={"file": ("copy.jpg", resaved.getvalue(), "image/jpeg")})
    assert form.status_code == 200 and form.json()["data"]["verdict"] == "none"


def test_credentials_from_another_signer_are_not_ours(
    api: httpx.Client, signed_output: bytes, swap: dict[str, Any], tmp_path: Path
) -> None:
    """Someone else's valid chain claiming one of our generations: not ours, and the claimed
    generation is not repeated back."""
    resaved = io.BytesIO()
    Image.open(io.BytesIO(signed_output)).save(resaved, "JPEG", quality=95)
    other = ContentSigner(load_credentials(None, None, tmp_path))
    forged = other.sign(resaved.getvalue(), "image/jpeg", ProvenanceFacts(
        generation_id=swap["serviceId"], task_id=swap["tasks"][1]["taskId"],
        service=GenerationKind.BODY_SWAP, engine=EngineIdentity("cpu", "1"), product_version="1"))
    assert c2pa_report(forged.data, "image/jpeg")["validation_state"] == "Valid"
    verdict = verdict_of(api, forged.data)
    assert verdict["verdict"] == "not_ours" and verdict["ours"] is False, verdict
    assert verdict["hasCredentials"] is True
    assert verdict["generationId"] is None and verdict["credentials"] is None


def test_what_is_not_a_jpeg_or_png_gets_a_clear_4xx(
    api: httpx.Client, stack: Settings
) -> None:
    gif = io.BytesIO()
    Image.new("RGB", (8, 8)).save(gif, "GIF")
    cases = [
        (gif.getvalue(), "image/gif", 415, "JPEG or PNG"),
        (gif.getvalue(), "image/jpeg", 415, "JPEG or PNG"),  # whatever it claims to be
        (b"just some text", "text/plain", 415, "JPEG or PNG"),
        (b"", "image/png", 400, "empty"),
    ]
    for body, content_type, status, words in cases:
        answer = check(api, body, content_type)
        assert answer.status_code == status, (content_type, answer.text)
        assert words in answer.json()["message"]
    form = api.post("/api/v1/provenance", files={"photo": ("a.jpg", b"x", "image/jpeg")})
    assert form.status_code == 400 and "`file`" in form.json()["message"]
    # Past the upload limit: refused before the body is read.
    huge = b"\xff\xd8\xff" + b"\0" * stack.max_upload_bytes
    refused = check(api, huge, "image/jpeg")
    assert refused.status_code == 413 and "too large" in refused.json()["message"]
