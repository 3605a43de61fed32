"""The public API's bodies and views (issue 23): API keys, uploads and generations."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator

from api.schemas.common import ContentCredentials, Credits, Output, Schema
from api.schemas.wire import Service
from core.enums import ApiKeyMode, BodyType, Gender, GenerationStatus, SkinTone

METADATA_KEYS = 20
METADATA_KEY_LENGTH = 40
METADATA_VALUE_LENGTH = 500


class ApiKeyView(Schema):
    id: str
    name: str
    mode: ApiKeyMode
    # What identifies the key to a person: "mm_live_Ab3d…x9Qz".
    prefix: str
    last4: str
    createdAt: str
    lastUsedAt: str | None


class NewApiKeyBody(Schema):
    name: Annotated[str, Field(min_length=1, max_length=64)]
    mode: ApiKeyMode = ApiKeyMode.LIVE


class CreatedApiKey(ApiKeyView):
    # The whole secret, shown this once: only its hash is kept.
    secret: str


class PresignBody(Schema):
    """Ask for a URL to PUT the file to instead of sending it here."""

    filename: Annotated[str, Field(min_length=1, max_length=255)]
    mimeType: Literal["image/jpeg", "image/png", "image/webp"]
    size: Annotated[int, Field(ge=1, le=2**53)]


class UploadView(Schema):
    id: str
    # What POST /api/v1/generations takes in `inputs`.
    key: str
    # For a presigned upload: PUT the file here with the same Content-Type and size, within
    # ten minutes.
    uploadUrl: str | None = None


class GenerationBody(Schema):
    service: Service
    inputs: Annotated[list[Annotated[str, Field(min_length=1, max_length=512)]],
                      Field(min_length=1, max_length=20)]
    modelId: Annotated[str | None, Field(max_length=64)] = None
    backgroundId: Annotated[str | None, Field(max_length=64)] = None
    metadata: dict[str, str] | None = None

    @field_validator("metadata")
    @classmethod
    def _small(cls, value: dict[str, str] | None) -> dict[str, str] | None:
        if value is None:
            return None
        if len(value) > METADATA_KEYS:
            raise ValueError(f"at most {METADATA_KEYS} keys")
        for name, text in value.items():
            if not name or len(name) > METADATA_KEY_LENGTH:
                raise ValueError(f"keys are 1 to {METADATA_KEY_LENGTH} characters")
            if len(text) > METADATA_VALUE_LENGTH:
                raise ValueError(f"values are at most {METADATA_VALUE_LENGTH} characters")
        return value


class ImageView(Schema):
    """One input image of a generation and what became of it."""

    id: str
    status: GenerationStatus
    progress: int
    inputKey: str
    # Signed links, valid for a while (fetch the generation again for fresh ones).
    outputs: list[Output]
    error: str | None
    # The Content Credentials (C2PA) signed into the output file: a summary of its manifest.
    contentCredentials: ContentCredentials | None = None


class GenerationCredits(Schema):
    charged: int
    refunded: int


class PublicGeneration(Schema):
    id: str
    object: Literal["generation"] = "generation"
    service: Service
    status: GenerationStatus
    modelId: str | None
    backgroundId: str | None
    metadata: dict[str, str]
    # False: made with a test key (free, watermarked, seen by test keys only).
    livemode: bool
    credits: GenerationCredits
    images: list[ImageView]
    error: str | None
    createdAt: str
    completedAt: str | None
    deleted: bool


class GenerationList(Schema):
    items: list[PublicGeneration]
    hasMore: bool
    # Pass as `starting_after` for the next page.
    nextCursor: str | None


class KeyCredits(Credits):
    """The key's account's balance (the same numbers as the web app's
    /api/v1/user/creditsAvailable): `total` is what can be spent now."""


class PublicModel(Schema):
    """A digital model, and when uploads were given, whether a model swap of them to it is
    possible: `compatible` true, false (with `reason`, and the uploads it cannot be used with
    in `incompatibleUploads`), or null while that is not known yet (a photo still being
    analysed, or the model's skin tone still being measured: ask again in a few seconds)."""

    id: str
    name: str
    category: str
    description: str
    gender: Gender | None
    skinTone: SkinTone | None
    bodyType: BodyType | None
    url: str
    thumbnailUrl: str
    compatible: bool | None = None
    reason: str | None = None
    incompatibleUploads: list[str] = []


class ModelList(Schema):
    items: list[PublicModel]
    total: int
    pageNum: int
    pageSize: int
