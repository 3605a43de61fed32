"""Signing an encoded image with its Content Credentials.

Signing happens once, on the final bytes, where the output is stored: the manifest's hard binding
is a hash of the file, so anything that changes pixels (the test watermark, a re-render, a
download size) must happen before, and nothing may re-encode after. The claim thumbnail the
library would add by default is turned off: it re-decodes and re-encodes the image (55 ms and
85 KB of a 768×1024 JPEG's 58 ms and 89 KB), and the image itself is its own preview.
"""

from __future__ import annotations

import hashlib
import io
import threading
from dataclasses import dataclass, replace
from datetime import UTC, datetime

import c2pa

from core.provenance.chain import SigningCredentials
from core.provenance.manifest import (
    CredentialsSummary,
    ProvenanceFacts,
    manifest_definition,
    summarize,
)

SIGNING_SETTINGS = {"builder": {"thumbnail": {"enabled": False}}}
EXTENSIONS = {"image/jpeg": "jpg", "image/png": "png"}


class SigningError(RuntimeError):
    """The library refused to sign (a damaged encoding, a broken key): the task is retried."""


@dataclass(frozen=True)
class SignedImage:
    data: bytes
    summary: CredentialsSummary


class ContentSigner:
    """Signs images with one chain; one per process, shared by its threads."""

    def __init__(self, credentials: SigningCredentials) -> None:
        self.credentials = credentials
        self._context = c2pa.Context(settings=c2pa.Settings.from_dict(SIGNING_SETTINGS))
        self._signer = c2pa.Signer.from_info(
            c2pa.C2paSignerInfo(
                alg=b"es256",
                sign_cert=credentials.chain_pem,
                private_key=credentials.key_pem,
                ta_url=None,
            )
        )
        # The native signer is one object: its users take turns (a sign takes 2-7 ms).
        self._lock = threading.Lock()

    def sign(self, data: bytes, mime: str, facts: ProvenanceFacts) -> SignedImage:
        """`data` (a JPEG or PNG, final) with the manifest for `facts` embedded and signed."""
        if not facts.created_at:
            facts = replace(facts, created_at=datetime.now(UTC).isoformat(timespec="seconds"))
        definition = manifest_definition(
            facts, f"{facts.task_id}.{EXTENSIONS.get(mime, 'bin')}", mime
        )
        out = io.BytesIO()
        try:
            with self._lock:
                builder = c2pa.Builder(definition, context=self._context)
                builder.sign(self._signer, mime, io.BytesIO(data), out)
        except c2pa.C2paError as error:
            raise SigningError(f"Content Credentials could not be signed: {error}") from None
        # The summary from the very definition signed, with the signer readers will report.
        summary = summarize({
            **definition,
            "signature_info": {
                "common_name": self.credentials.signer,
                "issuer": self.credentials.organisation,
            },
        })
        assert summary is not None  # our definition always carries our assertion
        signed = out.getvalue()
        return SignedImage(
            signed, replace(summary, content_sha256=hashlib.sha256(signed).hexdigest())
        )
