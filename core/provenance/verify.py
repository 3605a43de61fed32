"""Checking an image's Content Credentials: ours, valid, and unchanged since signing?

c2pa's reader validates the manifest (its signature, the assertions' hashes, the hard binding
to the file's bytes) against trust anchors; ours are our own chain's root(s), so an image we
signed reads as trusted here even when the chain is a development one nobody else trusts.
"""

from __future__ import annotations

import hashlib
import io
import json
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import c2pa

from core.provenance.manifest import CredentialsSummary, summarize


class Verdict(StrEnum):
    VERIFIED = "verified"  # our valid credentials, pixels unchanged
    ALTERED = "altered"  # our credentials, but the file changed since it was signed
    NOT_OURS = "not_ours"  # valid credentials from someone else (or not trusted by us)
    INVALID = "invalid"  # credentials that do not validate for another reason
    NONE = "none"  # no credentials at all (never signed, or stripped by a re-save)


MESSAGES = {
    Verdict.VERIFIED: "This image carries valid Content Credentials from MetaModel, and its "
                      "pixels have not changed since it was made.",
    Verdict.ALTERED: "This image carries MetaModel's Content Credentials, but the file was "
                     "changed after it was signed: its pixels are not the ones we made.",
    Verdict.NOT_OURS: "This image carries Content Credentials, but they were not signed by "
                      "this MetaModel service.",
    Verdict.INVALID: "This image carries Content Credentials that do not validate.",
    Verdict.NONE: "This image carries no Content Credentials. They may have been removed, "
                  "for example by a screenshot, an editor or a site that re-saves images.",
}
# Validation codes that mean the file's bytes no longer match what was signed.
ALTERED_CODES = ("assertion.dataHash.mismatch", "assertion.boxesHash.mismatch",
                 "assertion.bmffHash.mismatch", "assertion.collectionHash.mismatch")
MIME_BY_MAGIC = ((b"\xff\xd8\xff", "image/jpeg"), (b"\x89PNG\r\n\x1a\n", "image/png"))


class UnsupportedImage(ValueError):
    """Not a JPEG or PNG: the only formats this product delivers."""


@dataclass(frozen=True)
class ProvenanceCheck:
    verdict: Verdict
    message: str
    summary: CredentialsSummary | None = None
    validation_codes: list[str] = field(default_factory=list)


def sniff_mime(data: bytes) -> str:
    for magic, mime in MIME_BY_MAGIC:
        if data.startswith(magic):
            return mime
    raise UnsupportedImage("Send a JPEG or PNG image: the formats MetaModel delivers.")


class ProvenanceReader:
    """Reads and judges credentials against our trust anchors; one per process."""

    def __init__(self, trust_anchors_pem: bytes) -> None:
        self._context = c2pa.Context(settings=c2pa.Settings.from_dict({
            "trust": {"trust_anchors": trust_anchors_pem.decode()},
            "verify": {"verify_trust": True},
        }))

    def read(self, data: bytes) -> dict[str, Any] | None:
        """c2pa's report on the image (its JSON), or None when it has no manifest."""
        mime = sniff_mime(data)
        try:
            reader = c2pa.Reader(mime, io.BytesIO(data), context=self._context)
        except c2pa.C2paError.ManifestNotFound:
            return None
        report: dict[str, Any] = json.loads(reader.json())
        report["validation_state"] = reader.get_validation_state()
        return report

    def check(self, data: bytes) -> ProvenanceCheck:
        try:
            report = self.read(data)
        except c2pa.C2paError as error:
            # A manifest the library cannot even parse (truncated, forged boxes).
            return ProvenanceCheck(Verdict.INVALID, MESSAGES[Verdict.INVALID], None, [str(error)])
        if report is None:
            return ProvenanceCheck(Verdict.NONE, MESSAGES[Verdict.NONE])
        active = report.get("manifests", {}).get(report.get("active_manifest", ""), {})
        summary = summarize(active)
        if summary is not None:
            summary = replace(summary, content_sha256=hashlib.sha256(data).hexdigest())
        codes = [str(item.get("code")) for item in report.get("validation_status") or []]
        if any(code in ALTERED_CODES for code in codes):
            verdict = Verdict.ALTERED if summary is not None else Verdict.INVALID
        elif report.get("validation_state") == "Trusted" and summary is not None:
            verdict = Verdict.VERIFIED
        elif report.get("validation_state") in ("Trusted", "Valid"):
            verdict = Verdict.NOT_OURS
        else:
            verdict = Verdict.INVALID
        return ProvenanceCheck(verdict, MESSAGES[verdict], summary, codes)
