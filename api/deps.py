"""What routes depend on: the app's long-lived services and the calling principal."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request
from sqlalchemy.orm import Session
from temporalio.client import Client

from api.errors import ApiError
from api.security import Principal, TokenInvalid, read_token
from api.task_watch import TaskWatcher
from core.db import SessionFactory
from core.models import Account, AuthSession, as_utc, utcnow
from core.settings import Settings
from core.storage import Storage


@dataclass
class AppServices:
    """Built once in the app's lifespan, never at import time."""

    settings: Settings
    sessions: SessionFactory
    storage: Storage
    temporal: Client
    jwt_secret: str
    task_watcher: TaskWatcher


# Async on purpose: a plain function here would cost every request a thread-pool round trip.
async def get_services(request: Request) -> AppServices:
    services: AppServices = request.app.state.services
    return services


ServicesDep = Annotated[AppServices, Depends(get_services)]


def get_session(services: ServicesDep) -> Iterator[Session]:
    with services.sessions() as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]

UNAUTHORISED = "Your session has expired or is missing; please reload the page to start a new one."


def get_principal(
    services: ServicesDep,
    authorization: Annotated[str | None, Header()] = None,
    x_distributor_id: Annotated[str | None, Header()] = None,
) -> Principal:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise ApiError(401, UNAUTHORISED)
    try:
        principal = read_token(services.jwt_secret, authorization[7:].strip())
    except TokenInvalid:
        raise ApiError(401, UNAUTHORISED) from None
    if x_distributor_id and x_distributor_id != principal.distributor_id:
        raise ApiError(401, "This session belongs to another site; please sign in again.")
    with services.sessions() as session:
        if session.get(Account, principal.account_id) is None:
            raise ApiError(401, UNAUTHORISED)
        if principal.kind == "user":
            # Users' tokens name a session; logout or a password reset ends it for good.
            auth = session.get(AuthSession, principal.session_id or "")
            if auth is None or auth.revoked_at is not None or as_utc(auth.expires_at) <= utcnow():
                raise ApiError(401, "Unauthorised: please log in again.")
    return principal


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


def get_user_principal(principal: CurrentPrincipal) -> Principal:
    if principal.kind != "user" or principal.user_id is None:
        raise ApiError(401, "Please log in to see this.")
    return principal


CurrentUser = Annotated[Principal, Depends(get_user_principal)]


def distributor_id(
    services: ServicesDep, x_distributor_id: Annotated[str | None, Header()] = None
) -> str:
    return (x_distributor_id or services.settings.default_distributor_id)[:64]


DistributorDep = Annotated[str, Depends(distributor_id)]
