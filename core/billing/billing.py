"""Billing: checkout and payment webhooks, whatever the provider (the rules of an order's life
are in core/billing/orders.py; a provider's subscription events in subscription_events.py).

Checkout: the price and the credits come from the plan in the database (never the client); the
order is recorded pending, then the provider makes its hosted checkout.

Webhooks: the signature is checked before anything is parsed (the provider's parse_webhook);
every event is recorded by its id, so a replayed or duplicated event changes nothing; amount
and currency are checked against the order; a paid order is fulfilled by a Temporal workflow
(id `order-{orderId}`) whose activities grant the paid credits through the ledger with a key
derived from the provider's ids, so a crash between "paid" and "credited" loses nothing and a
purchase is never credited twice. The order shows paid once its credits are granted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import anyio.from_thread
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from temporalio.common import WorkflowIDConflictPolicy

from core.auth.tokens import Principal
from core.billing import events, subscription_events
from core.billing.orders import (
    CANCELED,
    DECLINED,
    ORDER_NOT_FOUND,
    failure_path,
    purchase_key,
    safe_redirect,
    success_path,
)
from core.billing.pricing import find_rate
from core.billing.provider import CheckoutOrder, PaymentEvent, PaymentProvider
from core.billing.subscriptions import ensure_can_subscribe
from core.contracts.fulfilment import ORDER_FULFILMENT_WORKFLOW, FulfilOrder, order_workflow_id
from core.db import SessionFactory
from core.enums import OrderStatus, RateInterval
from core.errors import InvalidInput, NotFound, Unavailable
from core.gst import parse_gstin
from core.models.accounts import User
from core.models.base import utcnow
from core.models.billing import Order
from core.models.billing import PaymentEvent as PaymentEventRow
from core.settings import Settings
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)

# The outcome recorded on a paid event whose amount or currency differs from its order. Never
# final: the order stays pending, so the real payment's event still fulfils it, while the
# mismatch is logged at error level, counted (mm_payment_mismatches_total) and listed by the
# reconciliation (core/billing/reconciliation.py) for as long as the order is unpaid.
MISMATCH_OUTCOME = events.PAYMENT_MISMATCH_OUTCOME
# An event's amount is kept only when a database integer holds it (any other is a mismatch).
STORABLE_AMOUNT = 2**31


@dataclass(frozen=True)
class Checkout:
    order: Order
    checkout_url: str


class Billing:
    def __init__(
        self,
        sessions: SessionFactory,
        settings: Settings,
        temporal: WorkflowStarter,
        provider: PaymentProvider,
        on_mismatch: Callable[[], object] = lambda: None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.temporal = temporal
        self.provider = provider
        # Called once per payment event that did not match its order (the API counts them).
        self.on_mismatch = on_mismatch

    # Checkout

    def checkout(
        self,
        principal: Principal,
        piid: str,
        rcid: str,
        currency: str,
        redirect_by: str | None = None,
        gstin: str | None = None,
    ) -> Checkout:
        """`gstin`: the buyer's GST registration for this order's invoice (kept in their
        settings for the next); left out, the one in their settings, if any."""
        if principal.user_id is None:
            raise InvalidInput("Please log in to buy credits.")
        redirect = safe_redirect(redirect_by)
        given = parse_gstin(gstin)
        with self.sessions.begin() as session:
            plan, rate = find_rate(session, piid, rcid, currency)
            user = session.get(User, principal.user_id)
            if user is None:
                raise NotFound("Your account was not found; please log in again.")
            if given:
                user.gstin = given
            if rate.interval == RateInterval.MONTH:
                # One live subscription per user: another plan is a change of its plan.
                ensure_can_subscribe(session, user.id)
            order = Order(
                account_id=principal.account_id,
                user_id=user.id,
                plan_id=plan.id,
                rate_code=rate.id,
                plan_name=plan.name,
                kind=plan.kind,
                interval=rate.interval,
                amount=rate.value,
                currency=plan.currency,
                credits=rate.credits,
                status=OrderStatus.PENDING,
                provider=self.provider.name,
                redirect_by=redirect,
                buyer_gstin=user.gstin,
            )
            session.add(order)
            session.flush()
            request = CheckoutOrder(
                order_id=order.id,
                plan_id=plan.id,
                rate_code=rate.id,
                plan_name=plan.name,
                kind=plan.kind,
                amount=rate.value,
                currency=plan.currency,
                credits=rate.credits,
                customer_email=user.email,
                success_url=self.settings.app_url + success_path(order.id),
                cancel_url=self.settings.app_url + failure_path(order.id, CANCELED),
            )
        try:
            made = self.provider.create_checkout(request)
        except Exception:
            self._settle(request.order_id, OrderStatus.FAILED, "The checkout could not start.")
            raise
        with self.sessions.begin() as session:
            row = session.get(Order, request.order_id)
            assert row is not None
            row.provider_session_id = made.session_id
        return Checkout(row, made.url)

    def order_for(self, principal: Principal, order_id: str) -> Order:
        """The caller's own order; anyone else's is not found (we never say which)."""
        with self.sessions() as session:
            order = session.get(Order, order_id)
        if order is None or principal.user_id is None or order.user_id != principal.user_id:
            raise NotFound(ORDER_NOT_FOUND)
        return order

    def order_by_session(self, session_id: str) -> Order:
        with self.sessions() as session:
            order = session.execute(
                select(Order).where(
                    Order.provider == self.provider.name,
                    Order.provider_session_id == session_id,
                )
            ).scalar_one_or_none()
        if order is None:
            raise NotFound("That checkout was not found.")
        return order

    # Webhooks

    def receive_webhook(self, provider_name: str, payload: bytes, signature: str | None) -> bool:
        """Handle one delivery; False when the event was already handled (nothing changes).

        Raises InvalidSignature (nothing recorded) before reading anything, and Unavailable
        when fulfilment cannot start now (the event stays unhandled, so the provider's retry
        handles it)."""
        if provider_name != self.provider.name:
            raise NotFound("No such payment provider.")
        event = self.provider.parse_webhook(payload, signature)
        if self._record(event, payload):
            return False
        outcome = self._handle(event)
        with self.sessions.begin() as session:
            session.execute(
                update(PaymentEventRow)
                .where(
                    PaymentEventRow.provider == self.provider.name,
                    PaymentEventRow.event_id == event.id,
                )
                .values(processed_at=utcnow(), outcome=outcome[:255])
                .execution_options(synchronize_session=False)
            )
        log.info("payment event %s (%s): %s", event.id, event.type, outcome)
        return True

    def _record(self, event: PaymentEvent, payload: bytes) -> bool:
        """Keep the event by its id; True when it was already fully handled."""
        try:
            with self.sessions.begin() as session:
                session.add(
                    PaymentEventRow(
                        provider=self.provider.name,
                        event_id=event.id,
                        type=event.type,
                        order_id=(event.order_id or "")[:32] or None,
                        payload=payload.decode("utf-8", errors="replace"),
                        amount=event.amount
                        if event.amount is not None and abs(event.amount) < STORABLE_AMOUNT
                        else None,
                        currency=(event.currency or "")[:8] or None,
                    )
                )
            return False
        except IntegrityError:
            with self.sessions() as session:
                seen = session.execute(
                    select(PaymentEventRow).where(
                        PaymentEventRow.provider == self.provider.name,
                        PaymentEventRow.event_id == event.id,
                    )
                ).scalar_one()
            # Seen but not finished (fulfilment could not start then): handle it again.
            return seen.processed_at is not None

    def _handle(self, event: PaymentEvent) -> str:
        if event.type in events.SUBSCRIPTION_EVENTS:
            # A provider's own subscription billing (Stripe): to the subscription's workflow.
            return subscription_events.handle(self, event)
        if event.order_id is None:
            return "ignored: no order"
        with self.sessions() as session:
            order = session.get(Order, event.order_id)
        if order is None or order.provider != self.provider.name:
            return "ignored: unknown order"
        if event.session_id and order.provider_session_id != event.session_id:
            log.error("payment event %s names session %s, order %s has %s",
                      event.id, event.session_id, order.id, order.provider_session_id)
            return "rejected: another checkout session"
        if event.type == events.CHECKOUT_COMPLETED:
            if not event.paid:
                return "ignored: not paid yet"
            if order.status == OrderStatus.EXPIRED:
                # Expired orders are never fulfilled: the checkout's lifetime was over (the
                # provider no longer takes its payment), so this is a late or stray event. Its
                # money, if any was taken, is refunded by a person: the reconciliation lists it.
                log.error("order %s: paid event %s after the order expired; not fulfilled",
                          order.id, event.id)
                self.on_mismatch()
                return events.PAID_AFTER_EXPIRY_OUTCOME
            facts = event.subscription
            return self.fulfil_paid_order(order, event, facts.subscription_id if facts else None)
        if event.type == events.PAYMENT_FAILED:
            changed = self._settle(order.id, OrderStatus.FAILED, event.failure_reason or DECLINED)
            return "failed" if changed else "ignored: order not pending"
        if event.type == events.CHECKOUT_EXPIRED:
            changed = self._settle(order.id, OrderStatus.CANCELED, CANCELED)
            return "canceled" if changed else "ignored: order not pending"
        return "ignored: event type"

    def fulfil_paid_order(
        self, order: Order, event: PaymentEvent, provider_subscription_id: str | None = None
    ) -> str:
        """The provider says the order is paid (its checkout completed, or, for a monthly plan,
        its first invoice was paid, whichever came first): amount and currency checked, the
        fulfilment workflow started (once per order: the same id finds it running or done)."""
        if event.amount != order.amount or event.currency != order.currency:
            # Never final: the order stays pending, so the payment that does match (the real
            # one, or the provider's corrected event) still fulfils it. A person looks at this.
            log.error(
                "order %s: event %s says paid %s %s, the order is %s %s; not fulfilled, "
                "the order stays pending",
                order.id, event.id, event.amount, event.currency, order.amount, order.currency,
            )
            self.on_mismatch()
            return MISMATCH_OUTCOME
        assert order.provider_session_id is not None
        self._start_fulfilment(
            FulfilOrder(
                order_id=order.id,
                grant_key=purchase_key(order.provider, order.provider_session_id),
                payment_id=event.payment_id,
                provider_subscription_id=provider_subscription_id,
            )
        )
        return "fulfilling"

    def _settle(self, order_id: str, status: OrderStatus, reason: str) -> bool:
        """Move a pending order to failed or canceled; a paid order is never moved back."""
        with self.sessions.begin() as session:
            result = session.execute(
                update(Order)
                .where(Order.id == order_id, Order.status == OrderStatus.PENDING)
                .values(status=status, failure_reason=reason, updated_at=utcnow())
                .execution_options(synchronize_session=False)
            )
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def _start_fulfilment(self, inp: FulfilOrder) -> None:
        settings = self.settings

        async def start_it() -> None:
            await self.temporal.start_workflow(
                ORDER_FULFILMENT_WORKFLOW,
                inp,
                id=order_workflow_id(inp.order_id),
                task_queue=settings.task_queue,
                id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
            )

        try:
            # Webhooks are handled in worker threads; the Temporal client lives on the app's loop.
            anyio.from_thread.run(start_it)
        except Exception:
            log.exception("could not start the fulfilment of order %s", inp.order_id)
            raise Unavailable(
                "The payment could not be processed right now; it will be retried."
            ) from None
