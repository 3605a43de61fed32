"""Activities of a subscription's workflow: start it from a paid order, charge a period or an
upgrade's price difference to the card on file (local provider), grant a paid period's credits
(and record its payment), and write the workflow's state to the subscription row.

Synchronous, in the worker's thread pool; each is idempotent (grants are keyed per
subscription and period in the ledger, payment records per period), so Temporal may run them
again after a crash.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from temporalio import activity

from activities.generation import rejected_by_rule
from activities.registry import CardCharger, Queue, Registration, WorkerDeps
from core.billing import subscription_steps
from core.contracts.fulfilment import FulfilOrder
from core.contracts.subscription import (
    CHARGE_SUBSCRIPTION_PERIOD,
    CHARGE_SUBSCRIPTION_UPGRADE,
    GRANT_SUBSCRIPTION_CREDITS,
    SAVE_SUBSCRIPTION,
    START_SUBSCRIPTION,
    ChargeOutcome,
    ChargePeriod,
    ChargeUpgrade,
    GrantSubscriptionCredits,
    SubscriptionState,
    subscription_upgrade_order_id,
)
from core.db import SessionFactory
from core.errors import NotFound
from core.settings import Settings


class SubscriptionActivities:
    def __init__(
        self, sessions: SessionFactory, settings: Settings, charger: CardCharger | None
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.charger = charger

    @activity.defn(name=START_SUBSCRIPTION)
    def start_subscription(self, inp: FulfilOrder) -> SubscriptionState | None:
        try:
            return subscription_steps.start_subscription(
                self.sessions, self.settings, inp.order_id, inp.provider_subscription_id
            )
        except NotFound as error:
            raise rejected_by_rule(error, "OrderNotFound") from None

    @activity.defn(name=CHARGE_SUBSCRIPTION_PERIOD)
    def charge_subscription_period(self, inp: ChargePeriod) -> ChargeOutcome:
        if self.charger is None:
            return ChargeOutcome(paid=False, reason="This payment provider bills on its own.")
        try:
            card = subscription_steps.card_on_file(self.sessions, inp.subscription_id)
        except NotFound as error:
            raise rejected_by_rule(error, "SubscriptionNotFound") from None
        return self.charger(card, inp.amount, inp.currency)

    @activity.defn(name=CHARGE_SUBSCRIPTION_UPGRADE)
    def charge_subscription_upgrade(self, inp: ChargeUpgrade) -> ChargeOutcome:
        """Charge an upgrade's difference once: a payment already recorded for it (an earlier
        attempt) answers paid without charging again; a paid charge is recorded at once.
        (A real card-on-file charger would also be given the record's id as its idempotency
        key, for a crash between the charge and the record.)"""
        order_id = subscription_upgrade_order_id(inp.subscription_id, inp.period,
                                                 inp.plan.rate_code)
        done = subscription_steps.upgrade_payment(self.sessions, order_id)
        if done is not None:
            return ChargeOutcome(paid=True, payment_id=done.provider_payment_id)
        if self.charger is None:
            return ChargeOutcome(paid=False, reason="This payment provider bills on its own.")
        try:
            card = subscription_steps.card_on_file(self.sessions, inp.subscription_id)
            if inp.amount <= 0:
                return ChargeOutcome(paid=True)  # nothing to charge (nor to record)
            outcome = self.charger(card, inp.amount, inp.currency)
            if outcome.paid:
                subscription_steps.record_upgrade_payment(self.sessions, inp, outcome.payment_id)
        except NotFound as error:
            raise rejected_by_rule(error, "SubscriptionNotFound") from None
        return outcome

    @activity.defn(name=GRANT_SUBSCRIPTION_CREDITS)
    def grant_subscription_credits(self, inp: GrantSubscriptionCredits) -> int:
        try:
            return subscription_steps.grant_subscription_credits(self.sessions, inp)
        except NotFound as error:
            raise rejected_by_rule(error, "SubscriptionNotFound") from None

    @activity.defn(name=SAVE_SUBSCRIPTION)
    def save_subscription(self, state: SubscriptionState) -> None:
        try:
            subscription_steps.save_subscription(self.sessions, state)
        except NotFound as error:
            raise rejected_by_rule(error, "SubscriptionNotFound") from None


def _subscription_activities(deps: WorkerDeps) -> list[Callable[..., Any]]:
    subscriptions = SubscriptionActivities(deps.sessions, deps.settings, deps.card_charger)
    return [
        subscriptions.start_subscription,
        subscriptions.charge_subscription_period,
        subscriptions.charge_subscription_upgrade,
        subscriptions.grant_subscription_credits,
        subscriptions.save_subscription,
    ]


REGISTRATION = Registration(Queue.ORCHESTRATION, _subscription_activities)
