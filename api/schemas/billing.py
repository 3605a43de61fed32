"""Bodies of the payment history (api/routers/billing.py)."""

from __future__ import annotations

from api.schemas.common import Schema
from core.enums import Currency, OrderStatus, PlanKind


class PaymentHistoryItem(Schema):
    """A payment: `amount` in minor units; `invoiceUrl` (a PDF) only once it is paid."""

    orderId: str
    createdAt: str
    description: str
    kind: PlanKind
    amount: int
    currency: Currency
    status: OrderStatus
    invoiceUrl: str | None = None


class PaymentHistory(Schema):
    items: list[PaymentHistoryItem]
    total: int
    pageNum: int
    pageSize: int
