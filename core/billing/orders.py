"""Orders: their keys, the shop's return paths, and the fulfilment steps the order workflow's
activities run (each idempotent). Billing (core/billing/billing.py) takes checkouts and
payment webhooks and starts that workflow.
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from sqlalchemy import exists, select, update

from core import credits
from core.billing import events
from core.db import SessionFactory
from core.enums import LedgerKind, OrderStatus
from core.errors import InvalidInput, NotFound
from core.models.base import utcnow
from core.models.billing import Order, PaymentEvent

ORDER_NOT_FOUND = "That order was not found."
DECLINED = "The payment was declined."
CANCELED = "The checkout was canceled."
EXPIRED = "The checkout expired before it was paid."
# Events that say the buyer finished paying (or is paying: a completed checkout whose payment
# is still on its way): an order with one is not abandoned, whatever its age.
_PAYING_EVENTS = (events.CHECKOUT_COMPLETED, events.INVOICE_PAID)


def purchase_key(provider: str, session_id: str) -> str:
    """The ledger key of an order's grant: the provider's checkout session is one per order."""
    return f"purchase:{provider}:{session_id}"


def safe_redirect(value: str | None) -> str | None:
    """`redirectby`: a path on this site (never another site), or nothing."""
    if value is None or not value.strip():
        return None
    path = value.strip()
    if (
        len(path) > 512
        or not path.startswith("/")
        or path.startswith("//")
        or "\\" in path
        or any(ord(ch) < 32 for ch in path)
    ):
        raise InvalidInput("redirectby: Must be a path on this site, such as /generate.")
    return path


def success_path(order_id: str) -> str:
    return f"/success?orderId={quote(order_id)}"


def failure_path(order_id: str, reason: str) -> str:
    return f"/failure?orderId={quote(order_id)}&reason={quote(reason)}"


def expire_abandoned(sessions: SessionFactory, created_before: datetime) -> list[str]:
    """Expire the checkouts made before `created_before` and still pending: the provider's
    checkout lifetime is over, so nobody can pay them any more. Never a paid, failed or
    canceled order (one conditional update), nor one the provider said was completed. Returns
    the ids expired now; running it again expires nothing twice."""
    paying = exists().where(
        PaymentEvent.order_id == Order.id, PaymentEvent.type.in_(_PAYING_EVENTS)
    )
    with sessions.begin() as session:
        ids = list(
            session.execute(
                select(Order.id).where(
                    Order.status == OrderStatus.PENDING,
                    Order.created_at < created_before,
                    ~paying,
                )
            ).scalars()
        )
        if ids:
            session.execute(
                update(Order)
                .where(Order.id.in_(ids), Order.status == OrderStatus.PENDING, ~paying)
                .values(status=OrderStatus.EXPIRED, failure_reason=EXPIRED, updated_at=utcnow())
                .execution_options(synchronize_session=False)
            )
    return ids


# Fulfilment steps (the workflow's activities call these; each is idempotent)


def grant_order_credits(sessions: SessionFactory, order_id: str, key: str) -> int:
    """Grant the order's paid credits once per key; returns what was granted now (0 when an
    earlier attempt already did)."""
    with sessions() as session:
        order = session.get(Order, order_id)
    if order is None:
        raise NotFound(ORDER_NOT_FOUND)
    granted = credits.grant(
        sessions,
        order.account_id,
        paid=order.credits,
        key=key,
        kind=LedgerKind.PURCHASE,
        reference=order.id,
    )
    return order.credits if granted else 0


def mark_order_paid(sessions: SessionFactory, order_id: str, payment_id: str | None) -> None:
    """The order is paid and credited. A late decline or cancel never moves it back; a payment
    that arrives after a decline or cancel still counts (the money was taken)."""
    now = utcnow()
    with sessions.begin() as session:
        values: dict[str, object] = {
            "status": OrderStatus.PAID, "paid_at": now, "failure_reason": None, "updated_at": now,
        }
        if payment_id:
            values["provider_payment_id"] = payment_id[:128]
        session.execute(
            update(Order)
            .where(Order.id == order_id, Order.status != OrderStatus.PAID)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
