"""The logged-in user's profile, password and credits: /api/v1/user/..."""

from __future__ import annotations

from datetime import date

from fastapi import APIRouter

from api.deps import CurrentUser, ServicesDep
from api.routers.auth import user_view
from api.schemas import (
    Credits,
    CreditsAvailable,
    CreditUsage,
    CreditUsageDay,
    Envelope,
    Ok,
    PasswordUpdateBody,
    UserUpdateBody,
    UserView,
)
from core import credits

router = APIRouter(prefix="/api/v1/user", tags=["users"])
aliases = APIRouter(prefix="/imageedit/users", tags=["users"])


@router.get("/userInfo", response_model=Envelope[UserView])
def user_info(services: ServicesDep, principal: CurrentUser) -> Envelope[UserView]:
    return Envelope(data=user_view(services.accounts.get_user(principal.user_id or "")))


@router.patch("/userInfo", response_model=Envelope[UserView])
def update_user_info(
    services: ServicesDep, principal: CurrentUser, body: UserUpdateBody
) -> Envelope[UserView]:
    user = services.accounts.rename(principal.user_id or "", body.name)
    return Envelope(data=user_view(user))


@router.patch("/updatePassword", response_model=Envelope[Ok])
def update_password(
    services: ServicesDep, principal: CurrentUser, body: PasswordUpdateBody
) -> Envelope[Ok]:
    """Needs the current password."""
    services.accounts.change_password(principal, body.currentPassword, body.newPassword)
    return Envelope(data=Ok(ok=True))


def _credits(services: ServicesDep, principal: CurrentUser) -> Credits:
    with services.sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    return Credits(
        free=balance.free, paid=balance.paid, total=balance.available, held=balance.held
    )


@router.get("/creditsAvailable", response_model=Envelope[CreditsAvailable])
def credits_available(services: ServicesDep, principal: CurrentUser) -> Envelope[CreditsAvailable]:
    return Envelope(data=CreditsAvailable(creditsAvailable=_credits(services, principal)))


@aliases.get("/getCredits", response_model=Envelope[Credits])
def get_credits(services: ServicesDep, principal: CurrentUser) -> Envelope[Credits]:
    return Envelope(data=_credits(services, principal))


@router.get("/creditUsage", response_model=Envelope[CreditUsage])
def credit_usage(
    services: ServicesDep,
    principal: CurrentUser,
    fromDate: date | None = None,
    toDate: date | None = None,
) -> Envelope[CreditUsage]:
    """Credits spent and given back per day (UTC) from the ledger; the last 30 days by
    default, at most a year."""
    days = services.library.credit_usage(principal, fromDate, toDate)
    return Envelope(
        data=CreditUsage(
            fromDate=days[0].day.isoformat(),
            toDate=days[-1].day.isoformat(),
            totalSpent=sum(d.spent - d.refunded for d in days),
            days=[
                CreditUsageDay(date=d.day.isoformat(), spent=d.spent, refunded=d.refunded)
                for d in days
            ],
        )
    )
