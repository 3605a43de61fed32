"""Bodies of uploads, thumbnails and photo analysis (api/routers/uploads.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from api.schemas.common import Schema


class PresignedUpload(Schema):
    url: str
    key: str
    id: str = Field(alias="_id")


class ThumbnailBody(Schema):
    key: str = Field(min_length=1, max_length=512)


class CapabilityView(Schema):
    ok: bool
    reason: str | None = None


class PhotoAnalysisView(Schema):
    """What the photo shows and what each service can do with it (`can`, by service id:
    bodySwap, burstreplace), with the reason in plain words when it cannot."""

    kind: Literal["person", "garment", "neither"]
    people: int
    view: Literal["front", "side", "back"] | None = None
    face: Literal["full", "cropped", "none"]
    garment: str | None = None
    can: dict[str, CapabilityView]
    # The person's skin tone, CIE Lab [L, a, b] of the cheeks, when a face was measured: what
    # the model swap's tone rule compares with each digital model's (GET /api/v1/models?upload=).
    tone: list[float] | None = None


class Thumbnail(Schema):
    key: str
    url: str
    thumbnailKey: str
    thumbnailUrl: str
    width: int
    height: int
    # Null when the analysis did not answer within about a second (it is still made, and a
    # later createThumbnail of the same upload returns it).
    analysis: PhotoAnalysisView | None = None
