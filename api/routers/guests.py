"""Guest sessions and balances (/imageedit/users/...)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from api.deps import CurrentPrincipal, DistributorDep, ServicesDep
from api.errors import ApiError
from api.schemas import Credits, Envelope, GuestLogin, GuestLoginBody
from api.security import issue_token
from core import credits
from core.models import Account

router = APIRouter(prefix="/imageedit/users", tags=["guests"])


def _guest_account(services: ServicesDep, fingerprint: str, distributor: str) -> Account:
    """The fingerprint's account, created with its free credits the first time (only once)."""
    for _ in range(3):
        with services.sessions() as session:
            account = session.execute(
                select(Account).where(Account.fingerprint == fingerprint)
            ).scalar_one_or_none()
            if account is not None:
                return account
        try:
            with services.sessions.begin() as session:
                account = Account(kind="guest", fingerprint=fingerprint, distributor_id=distributor)
                session.add(account)
        except IntegrityError:
            continue  # another request created it first; read it back
        credits.grant(
            services.sessions,
            account.id,
            free=services.settings.guest_free_credits,
            key=f"guest-grant:{fingerprint}",
            reference=fingerprint,
        )
        return account
    raise ApiError(503, "Could not start a guest session; please try again.")


@router.post("/guestlogin", response_model=Envelope[GuestLogin])
def guest_login(
    services: ServicesDep,
    distributor: DistributorDep,
    body: Annotated[GuestLoginBody | None, Body()] = None,
    x_fingerprint_id: Annotated[str | None, Header(max_length=128)] = None,
) -> Envelope[GuestLogin]:
    """Start (or resume) a guest session for a browser fingerprint."""
    fingerprint = (x_fingerprint_id or (body.fingerprintId if body else None) or "").strip()
    if not fingerprint:
        raise ApiError(422, "A fingerprint id is needed (header x-fingerprint-id).")
    account = _guest_account(services, fingerprint, distributor)
    token = issue_token(
        services.jwt_secret,
        account_id=account.id,
        kind="guest",
        distributor_id=account.distributor_id,
        ttl_seconds=services.settings.guest_token_ttl_seconds,
    )
    with services.sessions() as session:
        balance = credits.get_balance(session, account.id)
    return Envelope(data=GuestLogin(token=token, credits=balance.total))


@router.get("/getCreditsForGuests", response_model=Envelope[Credits])
def credits_for_guests(services: ServicesDep, principal: CurrentPrincipal) -> Envelope[Credits]:
    with services.sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    return Envelope(data=Credits(free=balance.free, paid=balance.paid, total=balance.total))
