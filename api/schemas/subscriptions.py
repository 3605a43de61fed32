"""Bodies of the monthly plan subscription (api/routers/subscriptions.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema
from core.contracts.subscription import ChangeKind
from core.enums import Currency, SubscriptionStatus


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


class ChangePreviewView(Schema):
    """What changing to that plan would do, to confirm before POST /change: `upgrade` applies
    at once and charges `amountNow` (minor units; null when the payment provider prorates it
    itself) and grants `creditsNow`; `downgrade` applies at `effectiveAt` (the period end) and
    charges nothing now; `same` undoes a pending downgrade."""

    kind: ChangeKind
    planName: str
    currency: Currency
    amountPerPeriod: int
    creditsPerPeriod: int
    amountNow: int | None
    creditsNow: int
    effectiveAt: str
