"""Guest sessions and balances (/imageedit/users/...)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header

from api.deps import AddressDep, CurrentPrincipal, DistributorDep, GuestsDep, SessionsDep
from api.schemas.common import Credits, Envelope
from api.schemas.guests import GuestLogin, GuestLoginBody
from core import credits
from core.errors import InvalidInput

router = APIRouter(prefix="/imageedit/users", tags=["guests"])


@router.post("/guestlogin", response_model=Envelope[GuestLogin])
def guest_login(
    guests: GuestsDep, address: AddressDep,
    distributor: DistributorDep,
    body: Annotated[GuestLoginBody | None, Body()] = None,
    x_fingerprint_id: Annotated[str | None, Header(max_length=128)] = None,
) -> Envelope[GuestLogin]:
    """Start a guest session for a browser fingerprint (its account and free credits are
    created the first time, once)."""
    fingerprint = (x_fingerprint_id or (body.fingerprintId if body else None) or "").strip()
    if not fingerprint:
        raise InvalidInput("A fingerprint id is needed (header x-fingerprint-id).")
    guest = guests.start_session(fingerprint, distributor, address)
    return Envelope(data=GuestLogin(
        token=guest.token, credits=guest.credits, freeCreditsWithheld=guest.free_withheld
    ))


@router.get("/getCreditsForGuests", response_model=Envelope[Credits])
def credits_for_guests(sessions: SessionsDep, principal: CurrentPrincipal) -> Envelope[Credits]:
    with sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    return Envelope(data=Credits(
        free=balance.free, paid=balance.paid, total=balance.available, held=balance.held
    ))
