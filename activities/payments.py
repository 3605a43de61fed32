"""Activities of an order's fulfilment: grant the paid credits, then mark the order paid.

Synchronous, in the worker's thread pool; each is idempotent (the grant is keyed by the
provider's ids in the ledger), so Temporal may run them again after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.generation import rejected_by_rule
from activities.registry import Queue, Registration, WorkerDeps
from core.billing import orders
from core.contracts.fulfilment import GRANT_ORDER_CREDITS, MARK_ORDER_PAID, FulfilOrder
from core.db import SessionFactory
from core.errors import NotFound


class PaymentActivities:
    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions

    @activity.defn(name=GRANT_ORDER_CREDITS)
    def grant_order_credits(self, inp: FulfilOrder) -> int:
        try:
            return orders.grant_order_credits(self.sessions, inp.order_id, inp.grant_key)
        except NotFound as error:
            raise rejected_by_rule(error, "OrderNotFound") from None

    @activity.defn(name=MARK_ORDER_PAID)
    def mark_order_paid(self, inp: FulfilOrder) -> None:
        orders.mark_order_paid(self.sessions, inp.order_id, inp.payment_id)


def _payment_activities(deps: WorkerDeps) -> list[Callable[..., Any]]:
    payments = PaymentActivities(deps.sessions)
    return [payments.grant_order_credits, payments.mark_order_paid]


REGISTRATION = Registration(Queue.ORCHESTRATION, _payment_activities)
