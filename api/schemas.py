"""Request and response bodies. Names follow the product spec (camelCase, `_id`)."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from api.validation import IdText, KeyText, PasswordText, unstorable
from core.auth.emails import EMAIL
from core.engine import PLACEMENT_OFFSET_LIMIT, PLACEMENT_SCALE_RANGE
from core.enums import (
    CatalogKind,
    CatalogVisibility,
    ContactTopic,
    Currency,
    GenerationStatus,
    OrderStatus,
    PlanKind,
    RateInterval,
    Rating,
    Service,
    SubscriptionStatus,
    UserRole,
)

T = TypeVar("T")

# The shared enums, under the names the schemas have always used.
GenerationStatus = GenerationStatus


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


# Costs


class CostBody(Schema):
    requestType: Service
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


class CategoryList(Schema):
    items: list[str]


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


class Placement(Schema):
    """The user's adjustment of where the subject stands, over the engine's own placement:
    `x`, `y` move it by fractions of the image's width and height (right and down are
    positive), `scale` resizes it around its ground point (the bottom centre)."""

    model_config = ConfigDict(allow_inf_nan=False)

    x: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    y: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    scale: float = Field(1.0, ge=PLACEMENT_SCALE_RANGE[0], le=PLACEMENT_SCALE_RANGE[1])


class RerenderView(Schema):
    """A re-render just asked for: a new task of the same generation, followed like the
    others (GET /api/v1/task/pollTasks)."""

    taskId: str
    serviceId: str
    sourceTaskId: str
    # Re-renders of the original image still allowed (they are free, so bounded).
    remaining: int


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
    # "admin" for operators (python -m ops.admin grant EMAIL).
    role: UserRole = UserRole.USER


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
    service: Service
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


class ServiceIdView(Schema):
    serviceId: str


class CreditUsageDay(Schema):
    """One UTC day's credit movements: spent on images, refunded, granted free or paid."""

    date: str
    spent: int
    refunded: int
    grantedFree: int
    grantedPaid: int


class CreditLedgerEntry(Schema):
    """One movement of the ledger: deltas are signed (a charge is negative)."""

    id: int
    createdAt: str
    # grant (free credits), charge (images), refund, purchase (paid credits)
    kind: str
    deltaFree: int
    deltaPaid: int
    delta: int
    reference: str | None = None
    description: str


class CreditLedgerPage(Schema):
    """The ledger entries of the range, newest first, one page."""

    items: list[CreditLedgerEntry]
    total: int
    pageNum: int
    pageSize: int


class CreditUsage(Schema):
    fromDate: str
    toDate: str
    # Spent less refunded over the range.
    totalSpent: int
    days: list[CreditUsageDay]
    entries: CreditLedgerPage


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
    # The trace of the submit (32 hex digits): `python -m ops.trace {service id}` prints it,
    # a collector's UI (Jaeger) finds it by this id, and log lines carry it.
    traceId: str | None = None


class AdminGenerationList(Schema):
    items: list[AdminGeneration]


class AdminCatalogEntry(CatalogEntry):
    """A catalog item as operators see it: published or not, in the pickers' order."""

    type: CatalogKind
    visibility: CatalogVisibility
    published: bool
    sort: int


class AdminCatalogList(Schema):
    items: list[AdminCatalogEntry]


class CatalogUpdateBody(Schema):
    """Only the fields given change."""

    name: str | None = Field(default=None, min_length=1, max_length=128)
    category: str | None = Field(default=None, max_length=64)
    visibility: CatalogVisibility | None = None
    published: bool | None = None


class CatalogMoveBody(Schema):
    direction: Literal["up", "down"]


class CatalogDeleted(Schema):
    id: str = Field(alias="_id")
    removedObjects: int


# Commerce: pricing, checkout, orders, payment webhooks, enterprise inquiries


class RateConfig(Schema):
    credits: int


class RateInfo(Schema):
    """One price of a plan. `value` is an integer in the currency's minor unit (paise,
    cents): 149900 INR is ₹1,499.00."""

    value: int
    rateCode: str
    interval: RateInterval
    config: RateConfig


class PricingPlan(Schema):
    id: str = Field(alias="_id")
    name: str
    currency: Currency
    kind: PlanKind
    rateInfo: list[RateInfo]
    featureList: list[str]


class Pricing(Schema):
    planVersion: int
    currency: Currency
    pricingInfo: list[PricingPlan]


class CheckoutBody(Schema):
    piid: str = Field(min_length=1, max_length=64, description="The plan's `_id`.")
    rcid: str = Field(min_length=1, max_length=64, description="The rate's `rateCode`.")
    currency: Currency
    redirectby: str | None = Field(
        default=None, max_length=512, description="A path of this site to go to after paying."
    )

    @field_validator("currency", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value


class CheckoutStarted(Schema):
    orderId: str
    checkoutUrl: str


class OrderPlan(Schema):
    id: str = Field(alias="_id")
    name: str
    kind: PlanKind
    rateCode: str
    interval: RateInterval


class OrderView(Schema):
    """`amount` is in minor units; `credits` are the paid credits the order grants."""

    orderId: str
    status: OrderStatus
    credits: int
    amount: int
    currency: Currency
    plan: OrderPlan
    reason: str | None = None
    redirectby: str | None = None
    createdAt: str
    paidAt: str | None = None


class WebhookAck(Schema):
    received: bool
    duplicate: bool


class PaymentHistoryItem(Schema):
    """A payment: `amount` in minor units; `invoiceUrl` (a PDF) only once it is paid."""

    orderId: str
    createdAt: str
    description: str
    kind: PlanKind
    amount: int
    currency: Currency
    status: OrderStatus
    invoiceUrl: str | None = None


class PaymentHistory(Schema):
    items: list[PaymentHistoryItem]
    total: int
    pageNum: int
    pageSize: int


class SubscriptionView(Schema):
    """A monthly plan's subscription. `amount` (minor units) and `credits` are per period;
    times are ISO 8601 UTC. A downgrade waits for the period end (`pendingPlanId`); a cancel
    too (`cancelAtPeriodEnd`)."""

    id: str
    planId: str
    planName: str
    rateCode: str
    status: SubscriptionStatus
    currency: Currency
    amount: int
    credits: int
    currentPeriodStart: str
    currentPeriodEnd: str
    cancelAtPeriodEnd: bool
    pendingPlanId: str | None = None
    pendingPlanName: str | None = None


class CurrentSubscription(Schema):
    subscription: SubscriptionView | None = None


class ChangePlanBody(Schema):
    piid: str = Field(min_length=1, max_length=64, description="The new plan's `_id`.")
    rcid: str = Field(min_length=1, max_length=64, description="Its monthly rate's `rateCode`.")


class InquiryBody(Schema):
    name: str = Field(max_length=128)
    contact: str = Field(max_length=20, description="Digits only.")
    email: str = Field(max_length=320)
    organization: str = Field(max_length=200)
    identifier: str = Field(max_length=128, description="Where the form was sent from.")


class InquirySent(Schema):
    id: int
