"""The order fulfilment workflow (workflows/fulfilment.py): one per paid order."""

from __future__ import annotations

from dataclasses import dataclass

# Order fulfilment (workflows/fulfilment.py): one workflow per paid order, id `order-{orderId}`.

ORDER_FULFILMENT_WORKFLOW = "OrderFulfilment"
GRANT_ORDER_CREDITS = "grant_order_credits"
MARK_ORDER_PAID = "mark_order_paid"


def order_workflow_id(order_id: str) -> str:
    return f"order-{order_id}"


@dataclass
class FulfilOrder:
    """The workflow's input, and its activities'. `grant_key` is the ledger idempotency key,
    derived from the provider's ids (core.billing.orders.purchase_key)."""

    order_id: str
    grant_key: str
    payment_id: str | None = None
    # A monthly plan bought through a provider that runs subscriptions itself (Stripe): its
    # subscription id (sub_...). None with the local provider, whose subscription workflow
    # charges each period itself.
    provider_subscription_id: str | None = None


@dataclass
class FulfilmentResult:
    order_id: str
    credits_granted: int
