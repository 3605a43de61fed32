"""Bodies of pricing, checkout, orders and payment webhooks (api/routers/payments.py)."""

from __future__ import annotations

from pydantic import Field, field_validator

from api.schemas.common import Schema
from core.enums import Currency, OrderStatus, PlanKind, RateInterval


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
    gstin: str | None = Field(
        default=None, max_length=32,
        description="The buyer's GSTIN for the invoice (an Indian business; kept in their "
        "settings for later purchases). Left out: the one in their settings, if any.",
    )  # fmt: skip

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
