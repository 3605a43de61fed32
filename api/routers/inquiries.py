"""Enterprise (demo) inquiries from the pricing page, /enterprise-plan and the sidebar."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request

from api.client_address import client_address
from api.deps import AuthSessionsDep, SessionsDep, SettingsDep
from api.schemas.common import Envelope
from api.schemas.inquiries import InquiryBody, InquirySent
from core.contact.inquiries import Inquiry, submit_inquiry
from core.errors import NotAuthenticated

router = APIRouter(prefix="/api/v1", tags=["site"])


@router.post("/inquiry", status_code=201, response_model=Envelope[InquirySent])
def inquiry(
    auth: AuthSessionsDep, sessions: SessionsDep, settings: SettingsDep,
    request: Request,
    body: InquiryBody,
    authorization: Annotated[str | None, Header(max_length=4096)] = None,
) -> Envelope[InquirySent]:
    """Keep the inquiry and mail it to sales. Every field is required; `contact` is digits
    only. Works signed in or not; rate limited per address (429)."""
    account_id = None
    if authorization and authorization.lower().startswith("bearer "):
        try:
            account_id = auth.authenticate(authorization[7:].strip(), None).account_id
        except NotAuthenticated:
            account_id = None
    inquiry_id = submit_inquiry(
        sessions,
        settings,
        Inquiry(body.name, body.contact, body.email, body.organization, body.identifier),
        address=client_address(request, settings.trusted_proxies),
        account_id=account_id,
    )
    return Envelope(data=InquirySent(id=inquiry_id))
