"""What routes depend on: the app's long-lived services and the calling principal."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Annotated, Any

from fastapi import Depends, Header, Request, Response
from starlette.concurrency import run_in_threadpool

from api.client_address import client_address
from api.errors import quota_headers
from api.metrics import PAYMENT_MISMATCHES
from api.poll_cache import PollCache
from api.task_watch import TaskWatcher
from api.temporal_link import TemporalLink
from api.validation import AuthorizationHeader, DistributorHeader
from core.auth.api_keys import ApiKeys, looks_like_key
from core.auth.code_mail import CodeMail
from core.auth.guests import Guests
from core.auth.login import Logins
from core.auth.sessions import AuthSessions
from core.auth.signup import Signup
from core.auth.tokens import Principal
from core.auth.users import Users
from core.billing.billing import Billing
from core.billing.provider import ProviderFactory
from core.billing.subscriptions import Subscriptions
from core.catalog.admin import CatalogAdmin, people_counter
from core.catalog.fit import ModelFits, tone_measurer
from core.db import SessionFactory
from core.enums import AccountKind, ApiKeyMode, UserRole
from core.errors import Forbidden, NotAuthenticated, Unavailable
from core.generations.read import Generations
from core.generations.submit import Submissions
from core.library.gallery import Library
from core.library.showcase import Showcase
from core.models.accounts import User
from core.observability.logs import bind_log_context
from core.photos.analysis_request import PhotoAnalyser, photo_analyser
from core.provenance.setup import Provenance, provenance_from_settings
from core.settings import Settings
from core.storage import Storage
from core.webhooks.endpoints import Webhooks


@dataclass
class AppContext:
    """Built once in the app's lifespan, never at import time."""

    settings: Settings
    sessions: SessionFactory
    storage: Storage
    temporal: TemporalLink
    jwt_secret: str
    task_watcher: TaskWatcher
    # Plain pollTasks answers kept until the database changes (None: not cached).
    poll_cache: PollCache | None = None
    # Builds the configured payment provider (given by the composition root, api/main.py, so
    # that api/ imports no adapter).
    payment_providers: ProviderFactory | None = None

    # The rules, built once from the services above (core/ imports nothing from api/).
    # Accounts: one AuthSessions per process (it keeps the tokens verified moments ago).
    @cached_property
    def auth_sessions(self) -> AuthSessions:
        return AuthSessions(self.sessions, self.settings, self.jwt_secret)

    @cached_property
    def guests(self) -> Guests:
        return Guests(self.sessions, self.settings, self.auth_sessions)

    @cached_property
    def users(self) -> Users:
        return Users(self.sessions, self.settings, self.auth_sessions, self.guests)

    @cached_property
    def code_mail(self) -> CodeMail:
        return CodeMail(self.sessions, self.settings.resolved_code_secret())

    @cached_property
    def signup(self) -> Signup:
        return Signup(self.sessions, self.code_mail, self.auth_sessions, self.guests, self.users,
                      self.settings.signup_codes_per_address_per_hour)

    @cached_property
    def logins(self) -> Logins:
        return Logins(
            self.sessions, self.settings, self.code_mail, self.auth_sessions, self.guests,
            self.users,
        )  # fmt: skip

    @cached_property
    def provenance(self) -> Provenance:
        # Content Credentials' chain, signer and reader; the lifespan builds it at start, so a
        # chain that cannot sign stops the API there with the reason (CredentialsError).
        return provenance_from_settings(self.settings)

    @cached_property
    def library(self) -> Library:
        return Library(self.sessions, self.storage)

    @cached_property
    def showcase(self) -> Showcase:
        return Showcase(self.sessions, self.storage, self.settings, self.provenance)

    @cached_property
    def catalog_admin(self) -> CatalogAdmin:
        return CatalogAdmin(
            self.sessions, self.storage, self.settings,
            people_counter(self.temporal, self.settings),
        )

    @cached_property
    def photo_analyser(self) -> PhotoAnalyser:
        return photo_analyser(self.temporal, self.settings)

    @cached_property
    def model_fits(self) -> ModelFits:
        return ModelFits(
            self.sessions, tone_measurer(self.temporal, self.settings), self.photo_analyser
        )

    @cached_property
    def billing(self) -> Billing:
        if self.payment_providers is None:
            raise Unavailable("Payments are not available right now; try again later.")
        provider = self.payment_providers(self.settings, self.sessions, self._deliver_webhook)
        return Billing(
            self.sessions, self.settings, self.temporal, provider,
            on_mismatch=PAYMENT_MISMATCHES.inc,
        )  # fmt: skip

    def _deliver_webhook(self, payload: bytes, signature: str) -> bool:
        """A provider inside this app (the local test provider) delivers its webhooks here:
        the very handling POST /api/v1/payment/webhook/{provider} runs."""
        billing = self.billing
        return billing.receive_webhook(billing.provider.name, payload, signature)

    @cached_property
    def subscriptions(self) -> Subscriptions:
        # The provider is built on first use (told about changes of the subscriptions it
        # bills itself).
        return Subscriptions(self.sessions, self.settings, self.temporal,
                             provider=lambda: self.billing.provider)

    @cached_property
    def api_keys(self) -> ApiKeys:
        return ApiKeys(self.sessions, self.settings)

    @cached_property
    def webhooks(self) -> Webhooks:
        return Webhooks(self.sessions, self.settings)

    @cached_property
    def generations(self) -> Generations:
        return Generations(self.sessions, self.settings)

    @cached_property
    def submissions(self) -> Submissions:
        return Submissions(self.sessions, self.storage, self.settings, self.temporal)


def _from_context(attribute: str) -> Any:
    """A dependency on one part of the app's context (async: a plain function would cost every
    request a thread-pool round trip)."""

    async def part(request: Request) -> object:
        return getattr(request.app.state.context, attribute)

    part.__name__ = f"get_{attribute}"
    return Depends(part)


# What routes depend on, one typed dependency per resource or rule set (a route names what it
# uses and gets nothing else of the context).
SettingsDep = Annotated[Settings, _from_context("settings")]
SessionsDep = Annotated[SessionFactory, _from_context("sessions")]
StorageDep = Annotated[Storage, _from_context("storage")]
TemporalDep = Annotated[TemporalLink, _from_context("temporal")]
TaskWatcherDep = Annotated[TaskWatcher, _from_context("task_watcher")]
PollCacheDep = Annotated[PollCache | None, _from_context("poll_cache")]
AuthSessionsDep = Annotated[AuthSessions, _from_context("auth_sessions")]
GuestsDep = Annotated[Guests, _from_context("guests")]
UsersDep = Annotated[Users, _from_context("users")]
CodeMailDep = Annotated[CodeMail, _from_context("code_mail")]
SignupDep = Annotated[Signup, _from_context("signup")]
LoginsDep = Annotated[Logins, _from_context("logins")]
LibraryDep = Annotated[Library, _from_context("library")]
ShowcaseDep = Annotated[Showcase, _from_context("showcase")]
CatalogAdminDep = Annotated[CatalogAdmin, _from_context("catalog_admin")]
PhotoAnalyserDep = Annotated[PhotoAnalyser, _from_context("photo_analyser")]
ModelFitsDep = Annotated[ModelFits, _from_context("model_fits")]
BillingDep = Annotated[Billing, _from_context("billing")]
SubscriptionsDep = Annotated[Subscriptions, _from_context("subscriptions")]
GenerationsDep = Annotated[Generations, _from_context("generations")]
SubmissionsDep = Annotated[Submissions, _from_context("submissions")]
ApiKeysDep = Annotated[ApiKeys, _from_context("api_keys")]
WebhooksDep = Annotated[Webhooks, _from_context("webhooks")]
ProvenanceDep = Annotated[Provenance, _from_context("provenance")]


# Async, so that a token verified moments ago (core/auth/recent.py), the common case of a
# polling browser, costs no thread-pool round trip; the database read runs in the pool.
async def get_principal(
    auth: AuthSessionsDep,
    authorization: AuthorizationHeader = None,
    x_distributor_id: DistributorHeader = None,
) -> Principal:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise NotAuthenticated(
            "Your session has expired or is missing; please reload the page to start a new one."
        )
    token = authorization[7:].strip()
    principal = auth.recently_authenticated(token, x_distributor_id)
    if principal is None:
        principal = await run_in_threadpool(auth.authenticate, token, x_distributor_id)
    # Every later log line of this request names the account (core/observability/logs.py).
    bind_log_context(account_id=principal.account_id)
    return principal


CurrentPrincipal = Annotated[Principal, Depends(get_principal)]


@dataclass(frozen=True)
class PublicCaller:
    """Who called a public route, and in which mode: live (a live key or a session) or test."""

    principal: Principal
    livemode: bool = True


async def get_public_caller(
    auth: AuthSessionsDep,
    api_keys: ApiKeysDep,
    response: Response,
    authorization: AuthorizationHeader = None,
    x_distributor_id: DistributorHeader = None,
) -> PublicCaller:
    """The caller of a public route (api/routers/public.py): an account API key
    (`Authorization: Bearer mm_live_...`) or, as everywhere, a session's or guest's token. Keys
    are accepted here only: on any other route a key is not a session token and gets 401. Every
    authenticated request counts against its account's one limit, whichever credential it
    came with, and the answer carries the RateLimit-* headers."""
    token = authorization[7:].strip() if authorization and authorization.lower().startswith(
        "bearer ") else ""
    if not looks_like_key(token):
        principal = await get_principal(auth, authorization, x_distributor_id)
        await _count_public_request(api_keys, response, principal.account_id)
        return PublicCaller(principal)
    caller = await run_in_threadpool(api_keys.authenticate, token)
    bind_log_context(account_id=caller.principal.account_id, api_key=caller.key_id)
    await _count_public_request(api_keys, response, caller.principal.account_id)
    return PublicCaller(caller.principal, caller.mode == ApiKeyMode.LIVE)


async def _count_public_request(api_keys: ApiKeys, response: Response, account_id: str) -> None:
    quota = await run_in_threadpool(api_keys.count_request, account_id)
    response.headers.update(quota_headers(quota))


CurrentCaller = Annotated[PublicCaller, Depends(get_public_caller)]


def get_public_principal(caller: CurrentCaller) -> Principal:
    """The account of a public route's caller, for routes where the mode does not matter."""
    return caller.principal


PublicPrincipal = Annotated[Principal, Depends(get_public_principal)]


def get_user_principal(principal: CurrentPrincipal) -> Principal:
    if principal.kind != AccountKind.USER or principal.user_id is None:
        raise NotAuthenticated("Please log in to see this.")
    return principal


CurrentUser = Annotated[Principal, Depends(get_user_principal)]


def distributor_id(
    settings: SettingsDep, x_distributor_id: DistributorHeader = None
) -> str:
    return (x_distributor_id or settings.default_distributor_id)[:64]


DistributorDep = Annotated[str, Depends(distributor_id)]


def caller_address(settings: SettingsDep, request: Request) -> str:
    """The caller's address, read through the proxies the settings trust."""
    return client_address(request, settings.trusted_proxies)


AddressDep = Annotated[str, Depends(caller_address)]


def get_admin_principal(sessions: SessionsDep, principal: CurrentUser) -> Principal:
    """A signed-in user whose role is admin (granted with `python -m ops.admin grant EMAIL`)."""
    with sessions() as session:
        user = session.get(User, principal.user_id or "")
    if user is None or user.role != UserRole.ADMIN:
        raise Forbidden("This page is for operators only.")
    return principal


CurrentAdmin = Annotated[Principal, Depends(get_admin_principal)]


def require_api_key(
    settings: SettingsDep, x_api_key: Annotated[str | None, Header(max_length=256)] = None
) -> None:
    """The image edit client's key (`x-api-key`), checked when API_KEYS is set."""
    keys = settings.api_keys
    if keys and x_api_key not in keys:
        raise NotAuthenticated("A valid API key is needed (header x-api-key).")
