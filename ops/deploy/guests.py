"""The deploy check's guests (ops/deploy/check.py): generations started and followed from
outside, through nginx, as a browser would.
"""

from __future__ import annotations

import io
import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from ops.deploy.shell import BASE_URL, FIXTURES, IMAGES_PER_GENERATION, CheckFailed, Figures

# --- a guest, through nginx -------------------------------------------------------------------


class Guest:
    """A browser's guest session, through nginx."""

    def __init__(self) -> None:
        self.http = httpx.Client(base_url=BASE_URL, timeout=60)
        self.fingerprint = uuid.uuid4().hex
        response = self.http.post("/imageedit/users/guestlogin",
                                  headers={"x-fingerprint-id": self.fingerprint})
        response.raise_for_status()
        self.token: str = response.json()["data"]["token"]
        self.credits: int = response.json()["data"]["credits"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "x-fingerprint-id": self.fingerprint}

    def upload(self, data: bytes, filename: str, preflight: bool = False) -> str:
        """Presigned URL from the API, then a PUT straight to storage, as the browser does
        (`preflight`: first the CORS preflight the browser sends, which must allow the web
        app's origin)."""
        response = self.http.get("/api/v1/request/presignedUrl", headers=self.headers, params={
            "filename": filename, "mimeType": "image/jpeg", "requestType": "burstreplace"})
        response.raise_for_status()
        target = response.json()["data"]
        if preflight:
            allowed = httpx.options(target["url"], headers={
                "Origin": BASE_URL, "Access-Control-Request-Method": "PUT",
                "Access-Control-Request-Headers": "content-type"})
            origin = allowed.headers.get("access-control-allow-origin")
            if allowed.status_code >= 300 or origin not in (BASE_URL, "*"):
                raise CheckFailed(f"storage refuses the browser's upload from {BASE_URL}: "
                                  f"{allowed.status_code}, allow-origin {origin!r}")
        put = httpx.put(target["url"], content=data,
                        headers={"Content-Type": "image/jpeg", "Origin": BASE_URL})
        put.raise_for_status()
        key: str = target["key"]
        return key

    def submit(self, keys: list[str]) -> dict[str, Any]:
        response = self.http.post(
            "/imageedit/service/burstreplace", headers=self.headers,
            data={"backgroundId": "white", "inputFiles": keys})
        if response.status_code != 200:
            raise CheckFailed(f"submit answered {response.status_code}: {response.text[:300]}")
        data: dict[str, Any] = response.json()["data"]
        return data

    def service(self, generation_id: str) -> dict[str, Any]:
        response = self.http.get(f"/imageedit/service/{generation_id}", headers=self.headers)
        response.raise_for_status()
        data: dict[str, Any] = response.json()["data"]
        return data


@dataclass
class Generation:
    guest: Guest
    generation_id: str
    images: int
    submitted: float
    finished: float | None = None
    status: str = "queued"
    delivered: int = 0
    polls_failed: int = 0

    @property
    def seconds(self) -> float:
        return round((self.finished or time.monotonic()) - self.submitted, 1)


def photos() -> list[bytes]:
    paths = sorted((FIXTURES / "people").glob("*.jpg"))[:IMAGES_PER_GENERATION]
    if len(paths) < IMAGES_PER_GENERATION:
        raise CheckFailed(f"fixture photos not found in {FIXTURES / 'people'} (FIXTURES_DIR)")
    return [path.read_bytes() for path in paths]


def start_generation(pictures: list[bytes], preflight: bool = False) -> Generation:
    guest = Guest()
    if guest.credits < len(pictures):
        raise CheckFailed(f"a new guest got {guest.credits} credits")
    keys = [guest.upload(data, f"photo-{i}.jpg", preflight) for i, data in enumerate(pictures)]
    data = guest.submit(keys)
    if len(data["taskIds"]) != len(pictures):
        raise CheckFailed(f"{len(pictures)} photos made {len(data['taskIds'])} tasks")
    return Generation(guest, data["serviceId"], len(pictures), time.monotonic())


def follow(generations: list[Generation], timeout: float) -> None:
    """Poll each generation (through nginx) until it has finished; the API may be away for a
    while (killed on purpose), so a failed poll is retried."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pending = [g for g in generations if g.finished is None]
        if not pending:
            return
        for g in pending:
            try:
                service = g.guest.service(g.generation_id)
            except (httpx.HTTPError, OSError):
                g.polls_failed += 1
                continue
            if service["status"] in ("completed", "failed"):
                g.finished, g.status = time.monotonic(), service["status"]
                g.delivered = sum(1 for t in service["tasks"] if t["status"] == "completed")
        time.sleep(0.5)
    late = [g.generation_id for g in generations if g.finished is None]
    raise CheckFailed(f"generations not finished after {timeout:.0f} s: {late}")


def content_credentials(generation: Generation, figures: Figures) -> None:
    """Every delivered file carries Content Credentials signed with the deployment's chain
    (the one made for this run): c2pa's own reader, trusting nothing, finds them valid with only
    the chain's trust flagged, and the same manifest the API summarises."""
    import c2pa

    reports = []
    for task in generation.guest.service(generation.generation_id)["tasks"]:
        data = httpx.get(task["outputs"][0]["url"]).raise_for_status().content
        mime = "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
        reader = c2pa.Reader(mime, io.BytesIO(data))
        report = json.loads(reader.json())
        manifest = report["manifests"][report["active_manifest"]]
        codes = [item["code"] for item in report.get("validation_status") or []]
        issuer = manifest.get("signature_info", {}).get("issuer")
        summary = task.get("contentCredentials") or {}
        if (reader.get_validation_state() != "Valid" or codes != ["signingCredential.untrusted"]
                or issuer != "MetaModel deploy check"
                or summary.get("manifestLabel") != report["active_manifest"]):
            raise CheckFailed(f"output of task {task['taskId']} is not signed by the deployment's "
                              f"chain: {reader.get_validation_state()}, {codes}, {issuer!r}")
        reports.append({"state": reader.get_validation_state(), "codes": codes,
                        "action": summary.get("action"), "bytes": len(data)})
    figures.put("content_credentials", reports)


def require_complete(generations: list[Generation]) -> None:
    bad = [(g.generation_id, g.status, g.delivered) for g in generations
           if g.status != "completed" or g.delivered != g.images]
    if bad:
        raise CheckFailed(f"generations not completed with all their images: {bad}")


def burst(pictures: list[bytes], count: int) -> tuple[list[Generation], float]:
    """`count` generations submitted at once; returns them and images per minute."""
    with ThreadPoolExecutor(max_workers=count) as pool:
        generations = list(pool.map(lambda _: start_generation(pictures), range(count)))
    first = min(g.submitted for g in generations)
    follow(generations, 900)
    require_complete(generations)
    elapsed = max(g.finished or 0 for g in generations) - first
    return generations, round(count * len(pictures) / elapsed * 60, 1)
