"""Accounts: sign-up with a mailed code, login, Google, password reset, sessions, guest upgrade.

Routes stay thin; the rules live here. Synchronous (database, Argon2); routes call it from a
worker thread and send mail afterwards.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

import httpx
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from api.deps import AppServices
from api.errors import ApiError
from api.schemas import UserView
from api.security import Principal, TokenInvalid, issue_token, read_token
from core import codes, credits, mail, ratelimit
from core.models import Account, AuthSession, Generation, UploadedFile, User, as_utc, utcnow
from core.passwords import hash_password, password_problem, verify_password

EMAIL = re.compile(r"^[^\s@]+@[^\s@]+\.[^\s@]+$")
WRONG_LOGIN = "The email or password is incorrect."

LOGIN_LIMIT = (10, timedelta(minutes=15))  # per email, and x3 per address
CODE_LIMIT = (5, timedelta(hours=1))  # codes mailed per email, and x4 per address


def normalise_email(raw: str) -> str:
    email = raw.strip().lower()
    if not EMAIL.match(email):
        raise ApiError(422, "Please enter correct email")
    return email


def limit(
    services: AppServices,
    action: str,
    email: str,
    address: str,
    rule: tuple[int, timedelta],
    per_address_factor: int,
) -> None:
    count, window = rule
    try:
        ratelimit.hit(services.sessions, [f"{action}:email:{email}"], count, window)
        ratelimit.hit(
            services.sessions, [f"{action}:ip:{address}"], count * per_address_factor, window
        )
    except ratelimit.RateLimited as error:
        raise ApiError(429, str(error)) from None


@dataclass(frozen=True)
class SessionTokens:
    access: str
    refresh: str
    user: UserView
    remember: bool


def user_view(user: User) -> UserView:
    return UserView(
        userId=user.id,
        userEmail=user.email,
        userName=user.name,
        createdAt=user.created_at.isoformat(),
    )


def _hash_refresh(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def access_token(services: AppServices, user: User, session_id: str) -> str:
    return issue_token(
        services.jwt_secret,
        account_id=user.account_id,
        kind="user",
        distributor_id=user.distributor_id,
        ttl_seconds=services.settings.access_token_ttl_seconds,
        user_id=user.id,
        session_id=session_id,
    )


def start_session(services: AppServices, user: User, remember: bool) -> SessionTokens:
    refresh = secrets.token_urlsafe(32)
    with services.sessions.begin() as session:
        auth = AuthSession(
            user_id=user.id,
            refresh_hash=_hash_refresh(refresh),
            expires_at=utcnow() + timedelta(seconds=services.settings.refresh_token_ttl_seconds),
        )
        session.add(auth)
        session.flush()
        session_id = auth.id
    return SessionTokens(
        access_token(services, user, session_id), refresh, user_view(user), remember
    )


def refresh_session(services: AppServices, refresh: str) -> str:
    with services.sessions() as session:
        auth = session.execute(
            select(AuthSession).where(AuthSession.refresh_hash == _hash_refresh(refresh))
        ).scalar_one_or_none()
        if auth is None or auth.revoked_at is not None:
            raise ApiError(401, "Unauthorised: please log in again.")
        if as_utc(auth.expires_at) <= utcnow():
            raise ApiError(401, "Your session has expired; please log in again.")
        user = session.get(User, auth.user_id)
        if user is None:
            raise ApiError(401, "Unauthorised: please log in again.")
        return access_token(services, user, auth.id)


def end_session(services: AppServices, token: str | None, refresh: str | None) -> None:
    """Revoke the session named by the access token (even an expired one: its signature still
    proves who issued it) or by the refresh token."""
    session_id = None
    if token:
        try:
            session_id = read_token(services.jwt_secret, token, verify_expiry=False).session_id
        except TokenInvalid:
            session_id = None
    condition = (
        AuthSession.id == session_id
        if session_id
        else AuthSession.refresh_hash == _hash_refresh(refresh or "")
    )
    if not session_id and not refresh:
        return
    with services.sessions.begin() as session:
        session.execute(
            update(AuthSession)
            .where(condition, AuthSession.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )


def _end_all_sessions(services: AppServices, user_id: str) -> None:
    with services.sessions.begin() as session:
        session.execute(
            update(AuthSession)
            .where(AuthSession.user_id == user_id, AuthSession.revoked_at.is_(None))
            .values(revoked_at=utcnow())
        )


def _find_user(services: AppServices, email: str) -> User | None:
    with services.sessions() as session:
        return session.execute(select(User).where(User.email == email)).scalar_one_or_none()


def _guest_account(services: AppServices, fingerprint: str | None) -> Account | None:
    if not fingerprint:
        return None
    with services.sessions() as session:
        return session.execute(
            select(Account).where(Account.fingerprint == fingerprint, Account.kind == "guest")
        ).scalar_one_or_none()


def adopt_guest_work(services: AppServices, user: User, fingerprint: str | None) -> None:
    """A guest who logs in keeps what they made: their generations and uploads move to the
    account. Their remaining guest credits stay behind: free credits are granted once."""
    guest = _guest_account(services, fingerprint)
    if guest is None or guest.id == user.account_id:
        return
    with services.sessions.begin() as session:
        session.execute(
            update(Generation)
            .where(Generation.account_id == guest.id)
            .values(account_id=user.account_id)
        )
        session.execute(
            update(UploadedFile)
            .where(UploadedFile.account_id == guest.id)
            .values(account_id=user.account_id)
        )
        session.execute(
            update(Account).where(Account.id == guest.id).values(kind="merged", fingerprint=None)
        )


def _create_user(
    services: AppServices,
    email: str,
    name: str,
    password_hash: str | None,
    distributor: str,
    fingerprint: str | None,
) -> User:
    """A new, verified user with the sign-up credits (once per email).

    A guest on the same browser becomes the user: their generations and leftover credits stay,
    and the fingerprint is released so a later guest session starts empty (the guest's free
    credits are keyed by fingerprint and are never granted again).
    """
    guest = _guest_account(services, fingerprint)
    with services.sessions.begin() as session:
        if guest is not None:
            account_id = guest.id
            session.execute(
                update(Account).where(Account.id == guest.id).values(kind="user", fingerprint=None)
            )
        else:
            account = Account(kind="user", distributor_id=distributor)
            session.add(account)
            session.flush()
            account_id = account.id
        user = User(
            email=email,
            name=name,
            password_hash=password_hash,
            distributor_id=distributor,
            account_id=account_id,
            verified_at=utcnow(),
        )
        session.add(user)
    credits.grant(
        services.sessions,
        user.account_id,
        free=services.settings.signup_free_credits,
        key=f"signup-grant:{email}",
        reference=user.id,
    )
    return user


# Sign-up


def request_signup_code(services: AppServices, raw_email: str, address: str) -> mail.Mail:
    email = normalise_email(raw_email)
    if _find_user(services, email) is not None:
        raise ApiError(400, "An account with this email already exists. Please log in.")
    limit(services, "signup-code", email, address, CODE_LIMIT, 4)
    return _code_mail(services, email, "signup")


def _code_mail(services: AppServices, email: str, purpose: str) -> mail.Mail:
    try:
        issued = codes.issue(services.sessions, services.jwt_secret, email, purpose)
    except codes.ResendTooSoon as error:
        raise ApiError(429, str(error)) from None
    what = "finish signing up" if purpose == "signup" else "reset your password"
    return mail.Mail(
        to=email,
        subject=f"Your MetaModel code: {issued.code}",
        body=f"Your code to {what} is {issued.code}.\n\nIt is valid for 10 minutes. "
        "If you did not ask for it, you can ignore this mail.\n",
        kind=f"{purpose}-code",
        dedupe_key=f"code:{issued.id}",
    )


def check_code(
    services: AppServices, raw_email: str, otp: str, purpose: str, consume: bool = False
) -> str:
    email = normalise_email(raw_email)
    try:
        codes.check(services.sessions, services.jwt_secret, email, purpose, otp, consume)
    except codes.CodeProblem as error:
        raise ApiError(400, str(error)) from None
    return email


def signup(
    services: AppServices,
    raw_email: str,
    otp: str,
    name: str,
    password: str,
    distributor: str,
    fingerprint: str | None,
    remember: bool,
) -> SessionTokens:
    problem = password_problem(password)
    if problem:
        raise ApiError(422, problem)
    email = normalise_email(raw_email)
    if _find_user(services, email) is not None:
        raise ApiError(400, "An account with this email already exists. Please log in.")
    check_code(services, email, otp, "signup", consume=True)
    try:
        user = _create_user(
            services, email, name.strip(), hash_password(password), distributor, fingerprint
        )
    except IntegrityError:
        raise ApiError(400, "An account with this email already exists. Please log in.") from None
    return start_session(services, user, remember)


# Login


def login(
    services: AppServices,
    raw_email: str,
    password: str,
    fingerprint: str | None,
    address: str,
    remember: bool,
) -> SessionTokens:
    email = raw_email.strip().lower()
    if not EMAIL.match(email):
        raise ApiError(400, "Please enter correct email")
    limit(services, "login", email, address, LOGIN_LIMIT, 3)
    user = _find_user(services, email)
    # Always verify (against a dummy hash for unknown emails): the answer takes as long either way.
    if not verify_password(user.password_hash if user else None, password) or user is None:
        raise ApiError(400, WRONG_LOGIN)
    adopt_guest_work(services, user, fingerprint)
    return start_session(services, user, remember)


def google_login(
    services: AppServices,
    access_token_value: str,
    name_hint: str,
    distributor: str,
    fingerprint: str | None,
    address: str,
    remember: bool,
) -> SessionTokens:
    """Verify the Google access token with Google's user-info endpoint and trust only the email
    it returns (never the one in the request)."""
    limit(services, "google", "-", address, (60, timedelta(minutes=15)), 1)
    try:
        response = httpx.get(
            services.settings.google_userinfo_url,
            timeout=10,
            headers={"Authorization": f"Bearer {access_token_value}"},
        )
    except httpx.HTTPError:
        raise ApiError(502, "Google could not be reached. Please try again later.") from None
    if response.status_code != 200:
        raise ApiError(400, "Google did not accept this sign-in. Please try again.")
    info = response.json()
    email = str(info.get("email") or "").strip().lower()
    if not EMAIL.match(email) or info.get("email_verified") is False:
        raise ApiError(400, "Your Google account has no verified email address.")
    name = str(info.get("name") or name_hint or email.split("@")[0])[:128]
    user = _find_user(services, email)
    if user is None:
        try:
            user = _create_user(services, email, name, None, distributor, fingerprint)
        except IntegrityError:  # created by a concurrent request a moment ago
            user = _find_user(services, email)
            if user is None:
                raise
    else:
        adopt_guest_work(services, user, fingerprint)
    return start_session(services, user, remember)


# Password reset: the same answers whether or not the email has an account.


def request_reset_code(services: AppServices, raw_email: str, address: str) -> mail.Mail | None:
    email = normalise_email(raw_email)
    limit(services, "reset-code", email, address, CODE_LIMIT, 4)
    if _find_user(services, email) is None:
        return None
    try:
        return _code_mail(services, email, "reset")
    except ApiError:
        return None  # asked again too soon: same answer, the earlier code still works


def reset_password(
    services: AppServices, raw_email: str, otp: str, password: str, address: str
) -> None:
    problem = password_problem(password)
    if problem:
        raise ApiError(422, problem)
    email = normalise_email(raw_email)
    limit(services, "reset", email, address, LOGIN_LIMIT, 3)
    check_code(services, email, otp, "reset", consume=True)
    with services.sessions.begin() as session:
        user = session.execute(select(User).where(User.email == email)).scalar_one_or_none()
        if user is None:  # a code is only ever mailed to an existing account
            raise ApiError(400, "The code is wrong or has expired.")
        user.password_hash = hash_password(password)
        user_id = user.id
    _end_all_sessions(services, user_id)


def change_password(services: AppServices, principal: Principal, current: str, new: str) -> None:
    problem = password_problem(new)
    if problem:
        raise ApiError(422, problem)
    with services.sessions.begin() as session:
        user = session.get(User, principal.user_id)
        if user is None:
            raise ApiError(401, "Please log in again.")
        if not verify_password(user.password_hash, current):
            raise ApiError(400, "The current password is incorrect.")
        user.password_hash = hash_password(new)
