"""The caller's payment history and the invoice PDF of each paid payment."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Path, Query
from fastapi.responses import Response

from api.deps import CurrentUser, SessionsDep, SettingsDep
from api.schemas.billing import PaymentHistory, PaymentHistoryItem
from api.schemas.common import Envelope
from core.billing import invoices
from core.enums import Currency, OrderStatus, PlanKind

router = APIRouter(prefix="/api/v1/payment", tags=["payments"])


def invoice_url(payment_id: str) -> str:
    return f"/api/v1/payment/invoice/{quote(payment_id)}"


@router.get("/history", response_model=Envelope[PaymentHistory])
def payment_history(
    sessions: SessionsDep,
    principal: CurrentUser,
    pageNum: Annotated[int, Query(ge=1, le=100_000)] = 1,  # noqa: N803
    pageSize: Annotated[int, Query(ge=1, le=invoices.MAX_PAGE_SIZE)] = 20,  # noqa: N803
) -> Envelope[PaymentHistory]:
    """The caller's payments (packs and subscription payments), newest first. `amount` is in
    minor units; `invoiceUrl` is set for paid ones."""
    page = invoices.payment_history(sessions, principal, pageNum, pageSize)
    return Envelope(data=PaymentHistory(
        items=[
            PaymentHistoryItem(
                orderId=record.id,
                createdAt=record.created_at.isoformat(),
                description=record.description,
                kind=PlanKind(record.kind),
                amount=record.amount,
                currency=Currency(record.currency),
                status=OrderStatus(record.status),
                invoiceUrl=invoice_url(record.id) if record.paid else None,
            )
            for record in page.items
        ],
        total=page.total,
        pageNum=page.page,
        pageSize=page.page_size,
    ))


@router.get(
    "/invoice/{orderId}",
    response_class=Response,
    responses={200: {"content": {"application/pdf": {}}, "description": "The invoice PDF."}},
)
def payment_invoice(
    sessions: SessionsDep, settings: SettingsDep,
    principal: CurrentUser,
    orderId: Annotated[str, Path(max_length=64)],  # noqa: N803
) -> Response:
    """The invoice of one of the caller's paid payments, as a PDF; 404 for anything else."""
    invoice = invoices.invoice_for(sessions, settings, principal, orderId)
    return Response(
        content=invoice.pdf,
        media_type="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="{invoice.filename}"',
            "Cache-Control": "private, no-store",
        },
    )
