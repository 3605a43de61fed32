"""Pricing, checkout, orders and payment webhooks."""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Header, Path, Query, Request

from api.deps import BillingDep, CurrentUser, SessionsDep
from api.errors import ApiError
from api.schemas.common import Envelope
from api.schemas.payments import (
    CheckoutBody,
    CheckoutStarted,
    OrderPlan,
    OrderView,
    Pricing,
    PricingPlan,
    RateConfig,
    RateInfo,
    WebhookAck,
)
from core.billing.pricing import CURRENT_PLAN_VERSION, preferred_currency, pricing
from core.billing.signature import SIGNATURE_HEADER
from core.enums import Currency, OrderStatus, PlanKind, RateInterval
from core.models.billing import Order

router = APIRouter(prefix="/api/v1", tags=["payments"])

# Provider events are a few kilobytes; anything far larger is not one.
MAX_WEBHOOK_BYTES = 256 * 1024


@router.get("/pricing", response_model=Envelope[Pricing])
def get_pricing(
    sessions: SessionsDep,
    planVersion: Annotated[int, Query(ge=1, le=1000)] = CURRENT_PLAN_VERSION,  # noqa: N803
    currency: Currency | None = None,
    accept_language: Annotated[str | None, Header(max_length=1024)] = None,
    x_timezone: Annotated[str | None, Header(max_length=64)] = None,
) -> Envelope[Pricing]:
    """The plans of a catalogue version. Without `currency`: INR for visitors from India
    (Accept-Language with an IN region, or `x-timezone: Asia/Kolkata`), USD otherwise.
    Prices (`rateInfo[].value`) are integers in minor units. No login needed."""
    chosen = currency or preferred_currency(accept_language, x_timezone)
    with sessions() as session:
        plans = pricing(session, planVersion, chosen)
    return Envelope(data=Pricing(
        planVersion=planVersion,
        currency=chosen,
        pricingInfo=[
            PricingPlan(
                _id=item.plan.id,
                name=item.plan.name,
                currency=Currency(item.plan.currency),
                kind=PlanKind(item.plan.kind),
                rateInfo=[
                    RateInfo(value=rate.value, rateCode=rate.id,
                             interval=RateInterval(rate.interval),
                             config=RateConfig(credits=rate.credits))
                    for rate in item.rates
                ],
                featureList=list(item.plan.feature_list),
            )
            for item in plans
        ],
    ))


@router.post("/payment/checkout", response_model=Envelope[CheckoutStarted])
def checkout(
    billing: BillingDep, principal: CurrentUser, body: CheckoutBody
) -> Envelope[CheckoutStarted]:
    """Start paying for a plan (signed-in users). The price comes from the plan, never from the
    request; open `checkoutUrl` to pay."""
    started = billing.checkout(
        principal, body.piid, body.rcid, body.currency, body.redirectby, body.gstin
    )
    return Envelope(data=CheckoutStarted(orderId=started.order.id,
                                         checkoutUrl=started.checkout_url))


def order_view(order: Order) -> OrderView:
    return OrderView(
        orderId=order.id,
        status=OrderStatus(order.status),
        credits=order.credits,
        amount=order.amount,
        currency=Currency(order.currency),
        plan=OrderPlan(_id=order.plan_id, name=order.plan_name, kind=PlanKind(order.kind),
                       rateCode=order.rate_code, interval=RateInterval(order.interval)),
        reason=order.failure_reason,
        redirectby=order.redirect_by,
        createdAt=order.created_at.isoformat(),
        paidAt=order.paid_at.isoformat() if order.paid_at else None,
    )


@router.get("/payment/order/{orderId}", response_model=Envelope[OrderView])
def get_order(
    billing: BillingDep,
    principal: CurrentUser,
    orderId: Annotated[str, Path(max_length=64)],  # noqa: N803
) -> Envelope[OrderView]:
    """One of the caller's orders: pending until paid and credited, or failed / canceled."""
    return Envelope(data=order_view(billing.order_for(principal, orderId)))


@router.post("/payment/webhook/{provider}", response_model=Envelope[WebhookAck])
async def webhook(
    billing: BillingDep,
    request: Request,
    provider: Annotated[str, Path(max_length=16)],
) -> Envelope[WebhookAck]:
    """The payment provider's events. The signature (Stripe-Signature) is checked on the raw
    body before anything is read: 400 when it does not match. A repeated event changes
    nothing (`duplicate`)."""
    body = await request.body()
    if len(body) > MAX_WEBHOOK_BYTES:
        raise ApiError(413, "The event is too large.")
    signature = request.headers.get(SIGNATURE_HEADER)
    # The handling is synchronous (database, and a workflow start through the app's loop).
    handled = await anyio.to_thread.run_sync(billing.receive_webhook, provider, body, signature)
    return Envelope(data=WebhookAck(received=True, duplicate=not handled))
