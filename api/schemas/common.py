"""Models shared by several routers: the envelope, the error body, the Schema base, shared views."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.schemas.wire import Service
from api.validation import unstorable
from core.engine import PLACEMENT_OFFSET_LIMIT, PLACEMENT_SCALE_RANGE
from core.enums import (
    BodyType,
    Gender,
    GenerationStatus,
    Rating,
    SkinTone,
    UserRole,
)

T = TypeVar("T")


class Envelope(BaseModel, Generic[T]):
    """Every successful response wraps its payload in `data`."""

    data: T


class ErrorBody(BaseModel):
    message: str


class Schema(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    @model_validator(mode="after")
    def _storable(self) -> Schema:
        # One rule for every body (see api/validation.py): no field may carry a NUL or a
        # lone surrogate.
        problem = unstorable(self.__dict__)
        if problem:
            raise ValueError(problem)
        return self


class Credits(Schema):
    """The balance: `total` is what can be spent now (free + paid, less what generations
    that are still running have reserved, `held`)."""

    free: int
    paid: int
    total: int
    held: int = 0


class CatalogEntry(Schema):
    """A digital model or background as the pickers show it. `description` is one short line
    (a model's build, skin tone, hair and height); `gender`, `skinTone` and `bodyType` are what
    the model picker filters on, null for backgrounds (and for a model nobody described)."""

    id: str = Field(alias="_id")
    name: str
    type: str
    category: str
    builtin: bool
    url: str
    thumbnailUrl: str
    description: str = ""
    gender: Gender | None = None
    skinTone: SkinTone | None = None
    bodyType: BodyType | None = None


class Output(Schema):
    key: str
    url: str
    thumbnailUrl: str


class Placement(Schema):
    """The user's adjustment of where the subject stands, over the engine's own placement:
    `x`, `y` move it by fractions of the image's width and height (right and down are
    positive), `scale` resizes it around its ground point (the bottom centre)."""

    model_config = ConfigDict(allow_inf_nan=False)

    x: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    y: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    scale: float = Field(1.0, ge=PLACEMENT_SCALE_RANGE[0], le=PLACEMENT_SCALE_RANGE[1])


class CredentialsIngredient(Schema):
    """One thing an image was made from, as its Content Credentials name it."""

    # photo | model | background | source (a re-render's original image)
    kind: str
    title: str
    # "sha256:<hex>" for an uploaded photo or an image, "catalog:<id>" for a model or background.
    identifier: str
    # C2PA's relationship: parentOf (the photo a background replace edits), inputTo, componentOf.
    relationship: str


class ContentCredentials(Schema):
    """The Content Credentials (C2PA) signed into an image: what made it and from what. The
    file itself carries them; this is their summary. `digitalSourceType` is IPTC's term
    (trainedAlgorithmicMedia or compositeWithTrainedAlgorithmicMedia)."""

    aiGenerated: bool = True
    # c2pa.created (a model swap) or c2pa.edited (a background replace, a retouch)
    action: str
    digitalSourceType: str
    claimGenerator: str
    engine: str
    generationId: str
    taskId: str
    testMode: bool
    # Who signed: the certificate's name and organisation.
    signer: str
    issuer: str
    signedAt: str | None
    manifestLabel: str
    ingredients: list[CredentialsIngredient]
    # SHA-256 of the signed file as delivered.
    sha256: str


class TaskView(Schema):
    taskId: str
    status: GenerationStatus
    progress: int
    stage: str
    inputKey: str
    inputThumbnailUrl: str
    outputs: list[Output]
    error: str | None
    # What the engine did that the customer should know, on a delivered image (e.g. "Framed
    # from the knees up: the scene has water where a person would stand.").
    note: str | None = None
    # A retouched version an operator attached to the output, if any.
    edited: Output | None = None
    shared: bool = False
    # The owner's own verdict on the output (GET /imageedit/service/{id} and /all only).
    rating: Rating | None = None
    comment: str = ""
    # A re-render with the user's placement: the original task and the placement used.
    sourceTaskId: str | None = None
    placement: Placement | None = None
    # The Content Credentials signed into the output (null for images made before signing).
    contentCredentials: ContentCredentials | None = None
    # The Content Credentials signed into the retouched version (`edited`): a c2pa.edited whose
    # parent ingredient is the output above (null without one, or for a WebP retouch).
    editedCredentials: ContentCredentials | None = None


class ServiceView(Schema):
    serviceId: str
    service: Service
    status: GenerationStatus
    credits: int
    modelId: str | None
    backgroundId: str | None
    error: str | None
    createdAt: str
    completedAt: str | None
    tasks: list[TaskView]


class Ok(Schema):
    ok: bool


class UserView(Schema):
    userId: str
    userEmail: str
    userName: str
    createdAt: str
    # "admin" for operators (python -m ops.admin grant EMAIL).
    role: UserRole = UserRole.USER
    # The user's GSTIN (put on their invoices), if they gave one.
    gstin: str | None = None


class ShowcasePair(Schema):
    taskId: str
    service: Service
    inputUrl: str
    inputThumbnailUrl: str
    outputUrl: str
    outputThumbnailUrl: str
    showcased: bool


class ShowcasePage(Schema):
    items: list[ShowcasePair]
    total: int
    pageNum: int
    pageSize: int
