"""Request and response bodies. Names follow the product spec (camelCase, `_id`)."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from api.validation import NUL_MESSAGE, IdText, KeyText, PasswordText, has_nul
from core.auth.emails import EMAIL
from core.enums import ContactTopic, GenerationStatus, Rating, Service

T = TypeVar("T")

# The shared enums, under the names the schemas have always used.
ServiceType = Service
TaskStatus = GenerationStatus


class Envelope(BaseModel, Generic[T]):
    """Every successful response wraps its payload in `data`."""

    data: T


class ErrorBody(BaseModel):
    message: str


class Schema(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    @model_validator(mode="after")
    def _no_nul(self) -> Schema:
        # One rule for every body (see api/validation.py): no field may carry a NUL.
        if has_nul(self.__dict__):
            raise ValueError(NUL_MESSAGE)
        return self


# Guests and credits


class GuestLoginBody(Schema):
    fingerprintId: str | None = Field(default=None, max_length=128)


class GuestLogin(Schema):
    token: str
    credits: int


class Credits(Schema):
    """The balance: `total` is what can be spent now (free + paid, less what generations
    that are still running have reserved, `held`)."""

    free: int
    paid: int
    total: int
    held: int = 0


# Uploads


class PresignedUpload(Schema):
    url: str
    key: str
    id: str = Field(alias="_id")


class ThumbnailBody(Schema):
    key: str = Field(min_length=1, max_length=512)


class Thumbnail(Schema):
    key: str
    url: str
    thumbnailKey: str
    thumbnailUrl: str
    width: int
    height: int


# Costs


class CostBody(Schema):
    requestType: ServiceType
    inputFiles: list[KeyText] = Field(min_length=1, max_length=20)
    modelId: IdText | None = None
    backgroundId: IdText | None = None


class Cost(Schema):
    credits: int


class MultiCostBody(Schema):
    entries: list[CostBody] = Field(min_length=1, max_length=50)


class MultiCost(Schema):
    credits: int
    entries: list[Cost]


# Catalog


class CatalogEntry(Schema):
    id: str = Field(alias="_id")
    name: str
    type: str
    category: str
    builtin: bool
    url: str
    thumbnailUrl: str


class ModelPage(Schema):
    items: list[CatalogEntry]
    total: int
    pageNum: int
    pageSize: int


class SeedPage(Schema):
    items: list[CatalogEntry]
    total: int
    pagenum: int
    pagesize: int


class Sample(Schema):
    id: str = Field(alias="_id")
    key: str
    url: str
    thumbnailUrl: str


class SampleList(Schema):
    items: list[Sample]


# Generations


class Submitted(Schema):
    serviceId: str
    taskIds: list[str]
    status: GenerationStatus
    credits: int


class Output(Schema):
    key: str
    url: str
    thumbnailUrl: str


class TaskView(Schema):
    taskId: str
    status: TaskStatus
    progress: int
    stage: str
    inputKey: str
    inputThumbnailUrl: str
    outputs: list[Output]
    error: str | None
    # A retouched version an operator attached to the output, if any.
    edited: Output | None = None
    shared: bool = False


class ServiceView(Schema):
    serviceId: str
    service: ServiceType
    status: GenerationStatus
    credits: int
    modelId: str | None
    backgroundId: str | None
    error: str | None
    createdAt: str
    completedAt: str | None
    tasks: list[TaskView]


class ServicePage(Schema):
    items: list[ServiceView]
    total: int
    pageNumber: int
    pageSize: int


class GuestEmailBody(Schema):
    email: str = Field(min_length=3, max_length=320, pattern=EMAIL.pattern)
    serviceId: str = Field(min_length=1, max_length=64)


class Ok(Schema):
    ok: bool


# Accounts


class EmailBody(Schema):
    email: str = Field(min_length=3, max_length=320)


class CodeBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")


class SignupBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")
    name: str = Field(min_length=1, max_length=128)
    password: PasswordText
    distributorId: str | None = Field(default=None, max_length=64)
    rememberMe: bool = True


class LoginBody(Schema):
    email: str = Field(min_length=1, max_length=320)
    password: str = Field(min_length=1, max_length=1024)
    rememberMe: bool = True


class ExternalLoginBody(Schema):
    email: str = Field(default="", max_length=320)
    name: str = Field(default="", max_length=128)
    distributorId: str | None = Field(default=None, max_length=64)
    accessToken: str = Field(min_length=1, max_length=4096)
    rememberMe: bool = True


class ResetBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")
    password: PasswordText


class UserView(Schema):
    userId: str
    userEmail: str
    userName: str
    createdAt: str


class LoggedIn(Schema):
    token: str
    user: UserView


class Sent(Schema):
    sent: bool


class Verified(Schema):
    verified: bool


class AccessToken(Schema):
    token: str


class UserUpdateBody(Schema):
    name: str = Field(min_length=1, max_length=128)


class PasswordUpdateBody(Schema):
    currentPassword: str = Field(min_length=1, max_length=1024)
    newPassword: PasswordText


class CreditsAvailable(Schema):
    creditsAvailable: Credits


# Library: gallery, feedback, sharing, downloads, showcase


class GalleryImage(Schema):
    taskId: str
    serviceId: str
    service: ServiceType
    createdAt: str
    inputThumbnailUrl: str
    output: Output
    # A retouched version an operator attached, shown as "Edited" beside the generated one.
    edited: Output | None
    shared: bool
    rating: Rating | None
    comment: str


class GalleryPage(Schema):
    items: list[GalleryImage]
    total: int
    pageNum: int
    pageSize: int


class FeedbackBody(Schema):
    taskId: str = Field(min_length=1, max_length=64)
    rating: Rating
    comment: str = Field(default="", max_length=2000)


class Feedback(Schema):
    taskId: str
    rating: Rating
    comment: str


class ShareBody(Schema):
    taskId: str = Field(min_length=1, max_length=64)
    shared: bool


class Shared(Schema):
    taskId: str
    shared: bool


class Deleted(Schema):
    serviceId: str
    removedObjects: int


class ZipBody(Schema):
    taskIds: list[IdText] = Field(min_length=1, max_length=200)


class ShowcasePair(Schema):
    taskId: str
    service: ServiceType
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


class ServiceIdView(Schema):
    serviceId: str


class CreditUsageDay(Schema):
    date: str
    spent: int
    refunded: int


class CreditUsage(Schema):
    fromDate: str
    toDate: str
    totalSpent: int
    days: list[CreditUsageDay]


class Features(Schema):
    googleLogin: bool
    showcase: bool
    contact: bool


class AppConfig(Schema):
    """Limits and switches the web app reads instead of repeating them (one source of truth)."""

    maxUploadBytes: int
    maxMegapixels: float
    minImageSide: int
    maxInputsPerGeneration: int
    acceptedTypes: list[str]
    features: Features


class ContactBody(Schema):
    name: str = Field(min_length=1, max_length=128)
    email: str = Field(min_length=3, max_length=320)
    topic: ContactTopic = ContactTopic.GENERAL
    message: str = Field(min_length=1, max_length=5000)


class ContactSent(Schema):
    id: int


# Admin


class CurateBody(Schema):
    showcased: bool


class AdminGeneration(Schema):
    generation: ServiceView
    ownerEmail: str | None
    temporalUrl: str


class AdminGenerationList(Schema):
    items: list[AdminGeneration]
