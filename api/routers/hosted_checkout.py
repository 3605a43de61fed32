"""The local payment provider's hosted test checkout, /pay/test/{sessionId}: a small server-made
page (not part of the API document). Only while PAYMENT_PROVIDER is one that hosts its checkout
here; 404 otherwise."""

from __future__ import annotations

import html
from typing import Annotated

from fastapi import APIRouter, Form, Path
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from api.deps import BillingDep
from api.errors import ApiError, status_for
from core.billing.billing import Billing
from core.billing.provider import HostedTestCheckout
from core.errors import DomainError, InvalidInput

router = APIRouter(tags=["payments"], include_in_schema=False)

SessionId = Annotated[str, Path(max_length=128)]


def _host(billing: Billing) -> HostedTestCheckout:
    provider = billing.provider
    if not isinstance(provider, HostedTestCheckout):
        raise ApiError(404, "No such page.")
    return provider


def _problem(error: DomainError) -> HTMLResponse:
    page = (
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>Checkout</title>'
        f"<body><p>{html.escape(error.message)}</p><p><a href=\"/subscription\">Back to "
        "pricing</a></p></body></html>"
    )
    return HTMLResponse(page, status_for(error))


@router.get("/pay/test/{session_id}", response_class=HTMLResponse)
def checkout_page(billing: BillingDep, session_id: SessionId) -> HTMLResponse:
    host = _host(billing)
    try:
        return HTMLResponse(host.checkout_page(session_id),
                            headers={"Cache-Control": "no-store"})
    except DomainError as error:
        return _problem(error)


@router.post("/pay/test/{session_id}", response_model=None)
def pay(
    billing: BillingDep,
    session_id: SessionId,
    card: Annotated[str, Form(max_length=64)] = "",
    action: Annotated[str, Form(max_length=16)] = "pay",
) -> Response:
    """Pay with a test card (field `card`) or cancel (`action=cancel`); 303 to /success or
    /failure."""
    host = _host(billing)
    try:
        where = host.cancel(session_id) if action == "cancel" else host.pay(session_id, card)
    except InvalidInput as error:
        try:
            return HTMLResponse(host.checkout_page(session_id, error.message), 422)
        except DomainError as missing:
            return _problem(missing)
    except DomainError as error:
        return _problem(error)
    return RedirectResponse(where, status_code=303)
