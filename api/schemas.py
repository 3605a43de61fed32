"""Request and response bodies. Names follow the product spec (camelCase, `_id`)."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

T = TypeVar("T")

ServiceType = Literal["bodySwap", "burstreplace"]
TaskStatus = Literal["queued", "running", "completed", "failed"]


class Envelope(BaseModel, Generic[T]):
    """Every successful response wraps its payload in `data`."""

    data: T


class ErrorBody(BaseModel):
    message: str


class Schema(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


# Guests and credits


class GuestLoginBody(Schema):
    fingerprintId: str | None = Field(default=None, max_length=128)


class GuestLogin(Schema):
    token: str
    credits: int


class Credits(Schema):
    free: int
    paid: int
    total: int


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
    inputFiles: list[str] = Field(min_length=1, max_length=20)
    modelId: str | None = None
    backgroundId: str | None = None


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
    status: str
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


class ServiceView(Schema):
    serviceId: str
    service: ServiceType
    status: str
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
    email: str = Field(
        min_length=3, max_length=320, pattern=r"^[^\s@]+@[^\s@]+\.[^\s@]+$"
    )
    serviceId: str = Field(min_length=1, max_length=64)


class Ok(Schema):
    ok: bool


# Accounts

EMAIL_PATTERN = r"^[^\s@]+@[^\s@]+\.[^\s@]+$"


class EmailBody(Schema):
    email: str = Field(min_length=3, max_length=320)


class CodeBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")


class SignupBody(Schema):
    email: str = Field(min_length=3, max_length=320)
    otp: str = Field(min_length=6, max_length=6, pattern=r"^\d{6}$")
    name: str = Field(min_length=1, max_length=128)
    password: str
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
    password: str


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
    newPassword: str


class CreditsAvailable(Schema):
    creditsAvailable: Credits
