"""The signed-in user's subscription (a monthly plan): read it, cancel at the period end,
resume, change its plan. Bought through POST /api/v1/payment/checkout like any plan."""

from __future__ import annotations

from fastapi import APIRouter

from api.deps import CurrentUser, SubscriptionsDep
from api.schemas.common import Envelope
from api.schemas.subscriptions import (
    ChangePlanBody,
    ChangePreviewView,
    CurrentSubscription,
    SubscriptionView,
)
from core.billing.subscriptions import SubscriptionInfo
from core.enums import Currency, SubscriptionStatus
from core.models.base import as_utc

router = APIRouter(prefix="/api/v1/payment/subscription", tags=["payments"])


def subscription_view(info: SubscriptionInfo) -> SubscriptionView:
    row = info.row
    return SubscriptionView(
        id=row.id,
        planId=row.plan_id,
        planName=row.plan_name,
        rateCode=row.rate_code,
        status=SubscriptionStatus(row.status),
        currency=Currency(row.currency),
        amount=row.amount,
        credits=row.credits,
        currentPeriodStart=as_utc(row.current_period_start).isoformat(),
        currentPeriodEnd=as_utc(row.current_period_end).isoformat(),
        cancelAtPeriodEnd=row.cancel_at_period_end,
        pendingPlanId=row.pending_plan_id,
        pendingPlanName=info.pending_plan_name,
    )


@router.get("", response_model=Envelope[CurrentSubscription])
def get_subscription(
    subscriptions: SubscriptionsDep, principal: CurrentUser
) -> Envelope[CurrentSubscription]:
    """The caller's live subscription, else their last ended one, else null."""
    info = subscriptions.current(principal)
    return Envelope(data=CurrentSubscription(
        subscription=subscription_view(info) if info is not None else None))


@router.post("/cancel", response_model=Envelope[SubscriptionView])
def cancel_subscription(
    subscriptions: SubscriptionsDep, principal: CurrentUser
) -> Envelope[SubscriptionView]:
    """Cancel at the end of the current period; its credits stay. 404 without a subscription,
    409 when it has ended, 502 when the payment provider refuses the change (nothing
    changed)."""
    return Envelope(data=subscription_view(subscriptions.cancel(principal)))


@router.post("/resume", response_model=Envelope[SubscriptionView])
def resume_subscription(
    subscriptions: SubscriptionsDep, principal: CurrentUser
) -> Envelope[SubscriptionView]:
    """Undo a pending cancel. 502 when the payment provider refuses it (nothing changed)."""
    return Envelope(data=subscription_view(subscriptions.resume(principal)))


@router.post("/change/preview", response_model=Envelope[ChangePreviewView])
def preview_plan_change(
    subscriptions: SubscriptionsDep, principal: CurrentUser, body: ChangePlanBody
) -> Envelope[ChangePreviewView]:
    """What POST /change with this body would do now (nothing is changed): charged now, credits
    granted now and when it takes effect. The same errors as /change for a plan that does not
    fit (422), an overdue renewal (409) or no subscription (404)."""
    preview = subscriptions.preview_change(principal, body.piid, body.rcid)
    return Envelope(data=ChangePreviewView(
        kind=preview.kind, planName=preview.plan_name, currency=Currency(preview.currency),
        amountPerPeriod=preview.amount_per_period, creditsPerPeriod=preview.credits_per_period,
        amountNow=preview.amount_now, creditsNow=preview.credits_now,
        effectiveAt=preview.effective_at.isoformat(),
    ))  # fmt: skip


@router.post("/change", response_model=Envelope[SubscriptionView])
def change_subscription(
    subscriptions: SubscriptionsDep, principal: CurrentUser, body: ChangePlanBody
) -> Envelope[SubscriptionView]:
    """Move to another monthly plan in the same currency: an upgrade at once once its price
    difference (new monthly amount less the current one) is charged to the card on file (the
    difference in credits is granted now; the charge is a payment with its invoice), a
    downgrade at the period end (`pendingPlanId`). Answers the subscription as changed. 402
    when the card is declined (nothing changed), 422 for a plan or rate that does not fit, 409
    while a renewal payment is overdue, 502 when the payment provider refuses the change."""
    info = subscriptions.change(principal, body.piid, body.rcid)
    return Envelope(data=subscription_view(info))
