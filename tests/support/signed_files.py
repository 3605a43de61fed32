"""What every delivered file's Content Credentials must show (tests/integration/
test_content_credentials.py and the others that check them): c2pa's report valid but for our
untrusted development signer, the action, the ingredients and our generation assertion, the
API's summary of that very file, the IPTC field in the XMP, and POST /api/v1/provenance's
verdict."""

from __future__ import annotations

import hashlib
import io
from typing import Any

import httpx
from PIL import Image

from tests.support.provenance import c2pa_report

UNTRUSTED = ["signingCredential.untrusted"]  # our development chain: nobody else trusts it
MIME = {b"\xff\xd8\xff": "image/jpeg", b"\x89PN": "image/png"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def mime_of(data: bytes) -> str:
    return MIME[data[:3]]


def ingredients_of(manifest: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(item["metadata"]["dataSource"]["details"], item["instance_id"],
             item["relationship"]) for item in manifest["ingredients"]}


def assert_signed(
    api: httpx.Client,
    data: bytes,
    summary: dict[str, Any] | None,
    action: tuple[str, str],
    ingredients: set[tuple[str, str, str]],
    generation_id: str,
    task_id: str,
    test_mode: bool = False,
    xmp: bool = True,
) -> dict[str, Any]:
    """Everything one delivered file must show; c2pa's report on it, for the caller's extras.
    `xmp=False` for an operator's retouch: stored as the operator made it, plus its manifest."""
    mime = mime_of(data)
    report = c2pa_report(data, mime)
    assert report["validation_state"] == "Valid", report.get("validation_status")
    assert [s["code"] for s in report["validation_status"]] == UNTRUSTED
    manifest = report["manifests"][report["active_manifest"]]
    assertions = {a["label"]: a["data"] for a in manifest["assertions"]}
    last = assertions["c2pa.actions.v2"]["actions"][-1]
    assert (last["action"], last["digitalSourceType"]) == action
    assert ingredients_of(manifest) == ingredients
    ours = assertions["com.metamodel.generation"]
    assert (ours["generationId"], ours["taskId"], ours["testMode"]) == (
        generation_id, task_id, test_mode)
    assert manifest["claim_generator_info"][0]["name"] == "MetaModel"

    # The API's summary is this very file's.
    if summary is not None:
        assert summary["manifestLabel"] == report["active_manifest"]
        assert summary["sha256"] == sha256(data)
        assert (summary["action"], summary["digitalSourceType"]) == action
        assert summary["testMode"] is test_mode
        assert {(i["kind"], i["identifier"], i["relationship"])
                for i in summary["ingredients"]} == ingredients

    # The IPTC field for tools that read only metadata.
    if xmp:
        info = Image.open(io.BytesIO(data)).info
        packet = info.get("xmp") if mime == "image/jpeg" else info.get("XML:com.adobe.xmp")
        xmp_text = packet.decode() if isinstance(packet, bytes) else str(packet)
        assert f'Iptc4xmpExt:DigitalSourceType="{action[1]}"' in xmp_text

    checked = check(api, data)
    assert checked.status_code == 200, checked.text
    verdict = checked.json()["data"]
    assert verdict["verdict"] == "verified" and verdict["ours"] is True, verdict
    assert (verdict["generationId"], verdict["taskId"], verdict["testMode"]) == (
        generation_id, task_id, test_mode)
    assert verdict["pixelsChanged"] is False and verdict["hasCredentials"] is True
    assert verdict["credentials"]["manifestLabel"] == report["active_manifest"]
    return report


def check(api: httpx.Client, data: bytes, content_type: str | None = None) -> httpx.Response:
    return api.post("/api/v1/provenance", content=data,
                    headers={"Content-Type": content_type or mime_of(data)})
