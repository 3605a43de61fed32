"""The logged-in user's profile, password and credits: /api/v1/user/..."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from api.deps import CurrentUser, SessionsDep, UsersDep
from api.routers.auth import user_view
from api.schemas.common import Credits, Envelope, Ok, UserView
from api.schemas.users import (
    CreditLedgerEntry,
    CreditLedgerPage,
    CreditsAvailable,
    CreditUsage,
    CreditUsageDay,
    PasswordUpdateBody,
    UserUpdateBody,
)
from core import credits
from core.auth.tokens import Principal
from core.billing import usage
from core.db import SessionFactory

router = APIRouter(prefix="/api/v1/user", tags=["users"])
aliases = APIRouter(prefix="/imageedit/users", tags=["users"])


@router.get("/userInfo", response_model=Envelope[UserView])
def user_info(users: UsersDep, principal: CurrentUser) -> Envelope[UserView]:
    return Envelope(data=user_view(users.get(principal.user_id or "")))


@router.patch("/userInfo", response_model=Envelope[UserView])
def update_user_info(
    users: UsersDep, principal: CurrentUser, body: UserUpdateBody
) -> Envelope[UserView]:
    user = users.update_profile(principal.user_id or "", body.name, body.gstin)
    return Envelope(data=user_view(user))


@router.patch("/updatePassword", response_model=Envelope[Ok])
def update_password(
    users: UsersDep, principal: CurrentUser, body: PasswordUpdateBody
) -> Envelope[Ok]:
    """Needs the current password."""
    users.change_password(principal, body.currentPassword, body.newPassword)
    return Envelope(data=Ok(ok=True))


def _credits(sessions: SessionFactory, principal: Principal) -> Credits:
    with sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    return Credits(
        free=balance.free, paid=balance.paid, total=balance.available, held=balance.held
    )


@router.get("/creditsAvailable", response_model=Envelope[CreditsAvailable])
def credits_available(sessions: SessionsDep, principal: CurrentUser) -> Envelope[CreditsAvailable]:
    return Envelope(data=CreditsAvailable(creditsAvailable=_credits(sessions, principal)))


@aliases.get("/getCredits", response_model=Envelope[Credits])
def get_credits(sessions: SessionsDep, principal: CurrentUser) -> Envelope[Credits]:
    return Envelope(data=_credits(sessions, principal))


@router.get("/creditUsage", response_model=Envelope[CreditUsage])
def credit_usage(
    sessions: SessionsDep,
    principal: CurrentUser,
    fromDate: Annotated[str | None, Query(max_length=32, description="YYYY-MM-DD")] = None,  # noqa: N803
    toDate: Annotated[str | None, Query(max_length=32, description="YYYY-MM-DD")] = None,  # noqa: N803
    pageNum: Annotated[int, Query(ge=1, le=100_000)] = 1,  # noqa: N803
    pageSize: Annotated[int, Query(ge=1, le=usage.MAX_PAGE_SIZE)] = 20,  # noqa: N803
) -> Envelope[CreditUsage]:
    """Credits per UTC day from the ledger (spent, refunded, granted free, granted paid) and
    the ledger entries of the range, newest first, a page at a time. The last 30 days by
    default; 422 on a bad date, a reversed range or one over a year."""
    report = usage.credit_usage(
        sessions,
        principal.account_id,
        usage.parse_day(fromDate, "fromDate"),
        usage.parse_day(toDate, "toDate"),
        pageNum,
        pageSize,
    )
    return Envelope(
        data=CreditUsage(
            fromDate=report.from_date.isoformat(),
            toDate=report.to_date.isoformat(),
            totalSpent=sum(d.spent - d.refunded for d in report.days),
            days=[
                CreditUsageDay(
                    date=d.day.isoformat(),
                    spent=d.spent,
                    refunded=d.refunded,
                    grantedFree=d.granted_free,
                    grantedPaid=d.granted_paid,
                )
                for d in report.days
            ],
            entries=CreditLedgerPage(
                items=[
                    CreditLedgerEntry(
                        id=e.id,
                        createdAt=e.created_at.isoformat(),
                        kind=e.kind,
                        deltaFree=e.delta_free,
                        deltaPaid=e.delta_paid,
                        delta=e.delta_free + e.delta_paid,
                        reference=e.reference,
                        description=e.description,
                    )
                    for e in report.entries
                ],
                total=report.total_entries,
                pageNum=report.page,
                pageSize=report.page_size,
            ),
        )
    )
