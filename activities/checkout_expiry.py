"""The checkout expiry's activity: abandoned checkouts (never paid within the provider's checkout
lifetime) leave "pending" for "expired" (core/billing/orders.py expire_abandoned), so the
user's billing pages say so and a late payment event never fulfils them."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from temporalio import activity

from activities.registry import Queue, Registration
from core.billing.orders import expire_abandoned
from core.db import SessionFactory
from core.models.base import utcnow

log = logging.getLogger(__name__)

EXPIRE_CHECKOUTS = "expire_abandoned_checkouts"


@dataclass
class ExpireCheckouts:
    """The expiry's input (workflow and activity): pending checkouts older than this expire."""

    older_than_seconds: float


@dataclass
class ExpiryReport:
    expired: int


class CheckoutExpiryActivities:
    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions

    @activity.defn(name=EXPIRE_CHECKOUTS)
    def expire_checkouts(self, inp: ExpireCheckouts) -> ExpiryReport:
        """One conditional update: safe to repeat, and never touches a paid order."""
        expired = expire_abandoned(
            self.sessions, utcnow() - timedelta(seconds=inp.older_than_seconds)
        )
        if expired:
            log.info("expired %d abandoned checkouts: %s", len(expired), ", ".join(expired))
        return ExpiryReport(expired=len(expired))


REGISTRATION = Registration(
    Queue.ORCHESTRATION, lambda deps: [CheckoutExpiryActivities(deps.sessions).expire_checkouts]
)
