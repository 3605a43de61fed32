"""The logged-in user's profile, password and credits: /api/v1/user/..."""

from __future__ import annotations

from fastapi import APIRouter

from api import accounts
from api.deps import CurrentUser, ServicesDep
from api.errors import ApiError
from api.schemas import (
    Credits,
    CreditsAvailable,
    Envelope,
    Ok,
    PasswordUpdateBody,
    UserUpdateBody,
    UserView,
)
from core import credits
from core.models import User

router = APIRouter(prefix="/api/v1/user", tags=["users"])
aliases = APIRouter(prefix="/imageedit/users", tags=["users"])


def _user(services: ServicesDep, principal: CurrentUser) -> User:
    with services.sessions() as session:
        user = session.get(User, principal.user_id)
    if user is None:
        raise ApiError(401, "Please log in again.")
    return user


@router.get("/userInfo", response_model=Envelope[UserView])
def user_info(services: ServicesDep, principal: CurrentUser) -> Envelope[UserView]:
    return Envelope(data=accounts.user_view(_user(services, principal)))


@router.patch("/userInfo", response_model=Envelope[UserView])
def update_user_info(
    services: ServicesDep, principal: CurrentUser, body: UserUpdateBody
) -> Envelope[UserView]:
    with services.sessions.begin() as session:
        user = session.get(User, principal.user_id)
        if user is None:
            raise ApiError(401, "Please log in again.")
        user.name = body.name.strip()
    return Envelope(data=accounts.user_view(user))


@router.patch("/updatePassword", response_model=Envelope[Ok])
def update_password(
    services: ServicesDep, principal: CurrentUser, body: PasswordUpdateBody
) -> Envelope[Ok]:
    """Needs the current password."""
    accounts.change_password(services, principal, body.currentPassword, body.newPassword)
    return Envelope(data=Ok(ok=True))


def _credits(services: ServicesDep, principal: CurrentUser) -> Credits:
    with services.sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    return Credits(free=balance.free, paid=balance.paid, total=balance.total)


@router.get("/creditsAvailable", response_model=Envelope[CreditsAvailable])
def credits_available(services: ServicesDep, principal: CurrentUser) -> Envelope[CreditsAvailable]:
    return Envelope(data=CreditsAvailable(creditsAvailable=_credits(services, principal)))


@aliases.get("/getCredits", response_model=Envelope[Credits])
def get_credits(services: ServicesDep, principal: CurrentUser) -> Envelope[Credits]:
    return Envelope(data=_credits(services, principal))
