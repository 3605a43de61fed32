"""Sign-up, login (email or Google), password reset, refresh and logout: /api/v1/auth/...
The /imageedit/users/... forms of the same calls are thin aliases of these functions."""

from __future__ import annotations

from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Cookie, Header, Response

from api.deps import (
    AddressDep,
    AuthSessionsDep,
    CodeMailDep,
    DistributorDep,
    LoginsDep,
    SessionsDep,
    SettingsDep,
    SignupDep,
)
from api.schemas.auth import (
    AccessToken,
    CodeBody,
    EmailBody,
    ExternalLoginBody,
    LoggedIn,
    LoginBody,
    ResetBody,
    Sent,
    SignupBody,
    Verified,
)
from api.schemas.common import Envelope, Ok, UserView
from api.validation import MAX_TOKEN, AuthorizationHeader
from core import mail
from core.auth.devices import DEVICE_COOKIE, DEVICE_COOKIE_SECONDS
from core.auth.sessions import SessionTokens
from core.db import SessionFactory
from core.enums import CodePurpose, UserRole
from core.errors import NotAuthenticated
from core.models.accounts import User
from core.settings import Settings

router = APIRouter(prefix="/api/v1/auth", tags=["auth"])
aliases = APIRouter(prefix="/imageedit/users", tags=["auth"])

REFRESH_COOKIE = "mm_refresh"
Fingerprint = Annotated[str | None, Header(alias="x-fingerprint-id", max_length=128)]
RefreshCookie = Annotated[str | None, Cookie(alias=REFRESH_COOKIE, max_length=MAX_TOKEN)]
# Not in the schema's parameters: browsers send it by themselves (core/auth/devices.py).
DeviceCookie = Annotated[
    str | None, Cookie(alias=DEVICE_COOKIE, max_length=128, include_in_schema=False)
]


def user_view(user: User) -> UserView:
    return UserView(
        userId=user.id,
        userEmail=user.email,
        userName=user.name,
        createdAt=user.created_at.isoformat(),
        role=UserRole(user.role),
        gstin=user.gstin,
    )


def _logged_in(settings: Settings, response: Response, tokens: SessionTokens) -> Envelope[LoggedIn]:
    """The access token in the body; the refresh token in an HttpOnly cookie the page's
    scripts cannot read. Without "remember me" it is a browser-session cookie. The browser
    is one the account has signed in from now: its device cookie."""
    response.set_cookie(
        REFRESH_COOKIE,
        tokens.refresh,
        max_age=settings.refresh_token_ttl_seconds if tokens.remember else None,
        httponly=True,
        secure=settings.secure_cookies,
        samesite="lax",
        path="/",
    )
    _set_device_cookie(settings, response, tokens.device)
    return Envelope(data=LoggedIn(token=tokens.access, user=user_view(tokens.user)))


def _set_device_cookie(settings: Settings, response: Response, value: str) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_COOKIE_SECONDS,
        httponly=True,
        secure=settings.secure_cookies,
        samesite="lax",
        path="/",
    )


async def _send(sessions: SessionFactory, settings: Settings, message: mail.Mail | None) -> None:
    if message is None:
        return
    outbox_id = await to_thread.run_sync(mail.keep, sessions, message)
    if outbox_id is not None:
        # The person is waiting for this code: the first try now, not at the relay's next tick.
        # A failure is recorded on the row and the relay tries again.
        await to_thread.run_sync(mail.send_now, settings, sessions, outbox_id)


@router.post("/generateSignupOTP", response_model=Envelope[Sent])
@aliases.post("/generateSignUpOTP", response_model=Envelope[Sent])
async def generate_signup_code(
    signups: SignupDep,
    sessions: SessionsDep,
    settings: SettingsDep,
    address: AddressDep,
    body: EmailBody,
) -> Envelope[Sent]:
    """Mail a 6-digit sign-up code (valid 10 minutes)."""
    message = await to_thread.run_sync(signups.request_code, body.email, address)
    await _send(sessions, settings, message)
    return Envelope(data=Sent(sent=True))


@router.post("/verifySignupOTP", response_model=Envelope[Verified])
def verify_signup_code(codes: CodeMailDep, body: CodeBody) -> Envelope[Verified]:
    """Check a sign-up code before asking for name and password (it is used up at sign-up)."""
    codes.check(body.email, body.otp, CodePurpose.SIGNUP)
    return Envelope(data=Verified(verified=True))


@router.post("/signup", response_model=Envelope[LoggedIn])
@aliases.post("/signupV2", response_model=Envelope[LoggedIn])
def signup(
    signups: SignupDep,
    settings: SettingsDep,
    response: Response,
    body: SignupBody,
    distributor: DistributorDep,
    fingerprint: Fingerprint = None,
    authorization: AuthorizationHeader = None,
) -> Envelope[LoggedIn]:
    """Create the account (10 free credits) and log in. A guest keeps their generations (the
    guest named by the fingerprint, else by the guest token), and the guest token ends."""
    tokens = signups.sign_up(
        body.email,
        body.otp,
        body.name,
        body.password,
        body.distributorId or distributor,
        fingerprint,
        body.rememberMe,
        _bearer(authorization),
    )
    return _logged_in(settings, response, tokens)


@router.post("/login", response_model=Envelope[LoggedIn])
@aliases.post("/login", response_model=Envelope[LoggedIn])
@aliases.post("/loginv2", response_model=Envelope[LoggedIn])
def login(
    logins: LoginsDep,
    settings: SettingsDep,
    address: AddressDep,
    response: Response,
    body: LoginBody,
    fingerprint: Fingerprint = None,
    authorization: AuthorizationHeader = None,
    device: DeviceCookie = None,
) -> Envelope[LoggedIn]:
    """Email and password. 400 with a message when they do not match. A guest token or
    fingerprint sent along brings the guest's work, and the guest token ends."""
    tokens = logins.with_password(
        body.email,
        body.password,
        fingerprint,
        address,
        body.rememberMe,
        device_cookie=device,
        bearer=_bearer(authorization),
    )
    return _logged_in(settings, response, tokens)


@router.post("/externalLogin", response_model=Envelope[LoggedIn])
def external_login(
    logins: LoginsDep,
    settings: SettingsDep,
    address: AddressDep,
    response: Response,
    body: ExternalLoginBody,
    distributor: DistributorDep,
    fingerprint: Fingerprint = None,
    authorization: AuthorizationHeader = None,
) -> Envelope[LoggedIn]:
    """Google: the access token is checked with Google; only the email it returns counts."""
    tokens = logins.with_google(
        body.accessToken,
        body.name,
        body.distributorId or distributor,
        fingerprint,
        address,
        body.rememberMe,
        _bearer(authorization),
    )
    return _logged_in(settings, response, tokens)


@router.post("/generateResetPasswordOTP", response_model=Envelope[Sent])
@aliases.post("/generateResetPasswordOTP", response_model=Envelope[Sent])
async def generate_reset_code(
    logins: LoginsDep,
    sessions: SessionsDep,
    settings: SettingsDep,
    address: AddressDep,
    body: EmailBody,
    device: DeviceCookie = None,
) -> Envelope[Sent]:
    """Mail a reset code if the email has an account; the answer is the same either way. A
    browser the account is known in gets a code of its own, outside strangers' reach."""
    message = await to_thread.run_sync(logins.request_reset_code, body.email, address, device)
    await _send(sessions, settings, message)
    return Envelope(data=Sent(sent=True))


@router.post("/verifyResetPasswordOTP", response_model=Envelope[Verified])
def verify_reset_code(
    logins: LoginsDep, address: AddressDep, body: CodeBody, device: DeviceCookie = None
) -> Envelope[Verified]:
    """Check a reset code before asking for the new password (429 past the checks' limit)."""
    logins.verify_reset_code(body.email, body.otp, address, device)
    return Envelope(data=Verified(verified=True))


@router.post("/resetPassword", response_model=Envelope[Ok])
@aliases.post("/resetPassword", response_model=Envelope[Ok])
def reset_password(
    logins: LoginsDep,
    settings: SettingsDep,
    address: AddressDep,
    response: Response,
    body: ResetBody,
    device: DeviceCookie = None,
) -> Envelope[Ok]:
    """Set a new password with the mailed code; every session of the account ends. The
    browser becomes one the account is known in (its sign-ins skip the limits that strangers'
    guesses fill)."""
    new_device = logins.reset_password(body.email, body.otp, body.password, address, device)
    _set_device_cookie(settings, response, new_device)
    return Envelope(data=Ok(ok=True))


@router.post("/refresh", response_model=Envelope[AccessToken])
def refresh(auth: AuthSessionsDep, mm_refresh: RefreshCookie = None) -> Envelope[AccessToken]:
    """A new access token for the session named by the refresh cookie."""
    if not mm_refresh:
        raise NotAuthenticated("Unauthorised: please log in again.")
    return Envelope(data=AccessToken(token=auth.refresh(mm_refresh)))


@router.post("/logout", response_model=Envelope[Ok])
def logout(
    auth: AuthSessionsDep,
    response: Response,
    authorization: AuthorizationHeader = None,
    mm_refresh: RefreshCookie = None,
) -> Envelope[Ok]:
    """End this session for good: its access and refresh tokens stop working. Works with the
    access token or, when that has expired, with the refresh cookie alone."""
    auth.end(_bearer(authorization), mm_refresh)
    response.delete_cookie(REFRESH_COOKIE, path="/")
    return Envelope(data=Ok(ok=True))


def _bearer(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None
