"""What the web app reads about the site itself (limits, switches) and the contact form."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request

from api.client_address import client_address
from api.deps import AuthSessionsDep, SessionsDep, SettingsDep
from api.schemas.common import Envelope
from api.schemas.site import AppConfig, ContactBody, ContactSent, Features
from core.contact.form import send_message
from core.errors import NotAuthenticated
from core.generations.submit import MAX_INPUTS
from core.photos.images import ACCEPTED_FORMATS, MIN_SIDE

router = APIRouter(prefix="/api/v1", tags=["site"])


@router.get("/config", response_model=Envelope[AppConfig])
def config(settings: SettingsDep) -> Envelope[AppConfig]:
    """Limits and feature switches: the web app's one source for them."""
    return Envelope(
        data=AppConfig(
            maxUploadBytes=settings.max_upload_bytes,
            maxMegapixels=settings.max_megapixels,
            minImageSide=MIN_SIDE,
            maxInputsPerGeneration=MAX_INPUTS,
            acceptedTypes=sorted(ACCEPTED_FORMATS.values()),
            features=Features(googleLogin=True, showcase=True, contact=True),
        )
    )


@router.post("/contact", response_model=Envelope[ContactSent])
def contact(
    auth: AuthSessionsDep, sessions: SessionsDep, settings: SettingsDep,
    request: Request,
    body: ContactBody,
    authorization: Annotated[str | None, Header(max_length=4096)] = None,
) -> Envelope[ContactSent]:
    """Keep the message and mail it to support. Works signed in or not."""
    account_id = None
    if authorization and authorization.lower().startswith("bearer "):
        try:
            account_id = auth.authenticate(authorization[7:].strip(), None).account_id
        except NotAuthenticated:
            account_id = None  # an expired session still may write to us
    message_id = send_message(
        sessions,
        settings,
        name=body.name,
        raw_email=body.email,
        topic=body.topic,
        message=body.message,
        address=client_address(request, settings.trusted_proxies),
        account_id=account_id,
    )
    return Envelope(data=ContactSent(id=message_id))
