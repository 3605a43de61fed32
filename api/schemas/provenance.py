"""The answer of the Content Credentials check (api/routers/provenance.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import ContentCredentials, Schema
from core.provenance.verify import Verdict


class ProvenanceCheckView(Schema):
    """What an image's Content Credentials say about it, judged against this service's own
    signing chain (C2PA): whether MetaModel made it, and whether its pixels changed since."""

    verdict: Verdict = Field(description=(
        "verified: our valid credentials, the file unchanged; altered: our credentials, but the "
        "file changed after signing; not_ours: valid credentials signed by someone else; "
        "invalid: credentials that do not validate; none: no credentials at all (never signed, "
        "or removed by a re-save)."))
    message: str = Field(description="The verdict in one sentence for a person.")
    hasCredentials: bool = Field(description="The file carries a C2PA manifest at all.")
    ours: bool = Field(description="Signed by this MetaModel service (verified or altered).")
    pixelsChanged: bool = Field(description="Ours, but the bytes differ from what was signed.")
    # Named only when the credentials are ours: anyone can write any id into a manifest.
    generationId: str | None = None
    taskId: str | None = None
    testMode: bool | None = Field(None, description="A test-mode (watermarked) image; null "
                                  "when the credentials are not ours.")
    credentials: ContentCredentials | None = Field(None, description=(
        "The summary of our credentials in the file (what made it, from what, who signed); "
        "null when they are not ours."))
    validationCodes: list[str] = Field(default_factory=list, description=(
        "The C2PA validation status codes the reader reported (e.g. "
        "assertion.dataHash.mismatch for a changed file)."))
