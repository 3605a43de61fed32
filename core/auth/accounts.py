"""Accounts: sign-up with a mailed code, login, Google, password reset, sessions, guests.

The rules only: routers parse the request, call a method here and shape the answer; errors are
domain errors (core/errors.py) that api/errors.py maps to statuses. Synchronous (database,
Argon2): routes call it from a worker thread and send mail afterwards.

Every access token names a server-side session (AuthSession), a user's or a guest browser's:
logout, a password reset, "end all sessions" and a guest becoming a user end it for good.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

import httpx
from sqlalchemy import event, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import ORMExecuteState, Session

from core import codes, credits, mail, ratelimit
from core.auth.devices import issue_device_cookie, known_device
from core.auth.emails import BAD_EMAIL, is_email, normalise_email
from core.auth.recent import RecentTokens
from core.auth.tokens import (
    Principal,
    TokenInvalid,
    issue_token,
    read_token,
    read_token_with_expiry,
)
from core.db import SessionFactory
from core.enums import AccountKind, CodePurpose, SessionKind
from core.errors import InvalidInput, NotAuthenticated, Refused, UpstreamFailed
from core.models.accounts import Account, AuthSession, User
from core.models.base import as_utc, utcnow
from core.models.generations import Generation, UploadedFile
from core.passwords import hash_password, password_problem, verify_password
from core.settings import Settings

WRONG_LOGIN = "The email or password is incorrect."
EMAIL_TAKEN = "An account with this email already exists. Please log in."
LOGGED_OUT = "Unauthorised: please log in again."
GUEST_EXPIRED = "Your session has expired or is missing; please reload the page to start a new one."

# Wrong logins from a browser the account has not signed in from lock (email, address) pairs:
# someone elsewhere guessing cannot lock the owner out of their own account. The per-email
# ceiling, well above, still stops a guessing campaign spread over many addresses; the
# per-address one stops one address trying many emails. A browser with the account's device
# cookie (core/auth/devices.py) is counted on its own and never meets those limits, so the
# ceiling an attacker fills does not lock the owner's known browsers out.
LOGIN_LIMIT = (10, timedelta(minutes=15))  # per (email, address), and per known device
LOGIN_EMAIL_CEILING = 100  # per email, from all addresses, in the same window
LOGIN_ADDRESS_LIMIT = 30  # per address, all emails
CEILING_MESSAGE = (
    "Too many sign-in attempts on this account from browsers it has not been used in. "
    "Please {wait}, sign in from a browser you have used before, or reset your password "
    "with a code sent to your email to continue now."
)
CODE_LIMIT = (5, timedelta(hours=1))  # codes mailed per email, and x4 per address


@dataclass(frozen=True)
class SessionTokens:
    access: str
    refresh: str
    user: User
    remember: bool
    device: str  # the browser's new device cookie for the user's email


@dataclass(frozen=True)
class GuestSession:
    token: str
    account_id: str
    credits: int


# How long a verified token is taken on trust in this process (core/auth/recent.py): a logout
# in another API process reaches this one within it.
RECENT_TOKEN_SECONDS = 2.0
AUTH_TABLES = frozenset({"auth_sessions", "accounts", "users"})


def _hash_refresh(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Accounts:
    """Users, guests and their sessions, over one database."""

    def __init__(
        self, sessions: SessionFactory, settings: Settings, token_secret: str, code_secret: str
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.token_secret = token_secret
        self.code_secret = code_secret
        # Tokens verified moments ago (core/auth/recent.py); emptied by any change this
        # process makes to sessions, accounts or users.
        self.recent = RecentTokens(RECENT_TOKEN_SECONDS)
        event.listen(sessions, "do_orm_execute", self._forget_on_update)
        event.listen(sessions, "after_flush", self._forget_on_flush)

    # Rate limits

    def limit(
        self,
        action: str,
        email: str,
        address: str,
        rule: tuple[int, timedelta],
        per_address_factor: int,
    ) -> None:
        count, window = rule
        ratelimit.hit(self.sessions, [f"{action}:email:{email}"], count, window)
        ip = ratelimit.address_key(address)
        ratelimit.hit(self.sessions, [f"{action}:ip:{ip}"], count * per_address_factor, window)

    # Who is calling

    def recently_authenticated(self, token: str, distributor_id: str | None) -> Principal | None:
        """The principal of a token this process verified moments ago (no database, no token
        decoding), else None: then call `authenticate`."""
        principal = self.recent.get(token)
        if principal is not None:
            self._check_distributor(principal, distributor_id)
        return principal

    def authenticate(self, token: str, distributor_id: str | None) -> Principal:
        """The principal of a bearer token whose session is still open, else NotAuthenticated."""
        principal = self.recently_authenticated(token, distributor_id)
        if principal is not None:
            return principal
        epoch = self.recent.epoch
        try:
            principal, token_expiry = read_token_with_expiry(self.token_secret, token)
        except TokenInvalid:
            raise NotAuthenticated(GUEST_EXPIRED) from None
        self._check_distributor(principal, distributor_id)
        is_user = principal.kind == AccountKind.USER
        # One query reads the session, the account's kind and the user's account together;
        # a browser polling pays for it once per RECENT_TOKEN_SECONDS.
        with self.sessions() as session:
            row = session.execute(
                select(AuthSession, Account.kind, User.account_id)
                .select_from(AuthSession)
                .outerjoin(Account, Account.id == principal.account_id)
                .outerjoin(User, User.id == AuthSession.user_id)
                .where(AuthSession.id == (principal.session_id or ""))
            ).first()
        if row is None:
            raise NotAuthenticated(LOGGED_OUT if is_user else GUEST_EXPIRED)
        auth, account_kind, user_account_id = row
        if (
            auth.revoked_at is not None
            or as_utc(auth.expires_at) <= utcnow()
            or (auth.user_id or None) != principal.user_id
            or (auth.account_id is not None and auth.account_id != principal.account_id)
        ):
            raise NotAuthenticated(LOGGED_OUT if is_user else GUEST_EXPIRED)
        if is_user:
            if user_account_id != principal.account_id:
                raise NotAuthenticated(LOGGED_OUT)
        elif account_kind != AccountKind.GUEST:
            # Only a guest account: a guest session opened while the guest was becoming a
            # user (the two requests racing) must not reach the user's account.
            raise NotAuthenticated(GUEST_EXPIRED)
        until = min(token_expiry, as_utc(auth.expires_at).timestamp())
        self.recent.put(token, principal, until, epoch)
        return principal

    @staticmethod
    def _check_distributor(principal: Principal, distributor_id: str | None) -> None:
        if distributor_id and distributor_id != principal.distributor_id:
            raise NotAuthenticated("This session belongs to another site; please sign in again.")

    def _forget_on_update(self, state: ORMExecuteState) -> None:
        """An UPDATE or DELETE of sessions, accounts or users through this process's sessions
        (logout, a guest becoming a user...): no token is answered from memory any more."""
        if state.is_update or state.is_delete:
            table = getattr(state.statement, "table", None)
            if getattr(table, "name", None) in AUTH_TABLES:
                self.recent.clear()

    def _forget_on_flush(self, session: Session, _context: object) -> None:
        """The same for changed or deleted ORM objects of those tables."""
        for obj in (*session.dirty, *session.deleted):
            if isinstance(obj, AuthSession | Account | User):
                self.recent.clear()
                return

    # Sessions

    def _access_token(self, user: User, session_id: str) -> str:
        return issue_token(
            self.token_secret,
            account_id=user.account_id,
            kind=AccountKind.USER,
            distributor_id=user.distributor_id,
            ttl_seconds=self.settings.access_token_ttl_seconds,
            user_id=user.id,
            session_id=session_id,
        )

    def start_session(self, user: User, remember: bool) -> SessionTokens:
        refresh = secrets.token_urlsafe(32)
        with self.sessions.begin() as session:
            auth = AuthSession(
                kind=SessionKind.USER,
                user_id=user.id,
                account_id=user.account_id,
                refresh_hash=_hash_refresh(refresh),
                expires_at=utcnow() + timedelta(seconds=self.settings.refresh_token_ttl_seconds),
            )
            session.add(auth)
            session.flush()
            session_id = auth.id
        return SessionTokens(
            self._access_token(user, session_id),
            refresh,
            user,
            remember,
            issue_device_cookie(self.token_secret, user.email),
        )

    def refresh_session(self, refresh: str) -> str:
        with self.sessions() as session:
            auth = session.execute(
                select(AuthSession).where(
                    AuthSession.refresh_hash == _hash_refresh(refresh),
                    AuthSession.kind == SessionKind.USER,
                )
            ).scalar_one_or_none()
            if auth is None or auth.revoked_at is not None:
                raise NotAuthenticated(LOGGED_OUT)
            if as_utc(auth.expires_at) <= utcnow():
                raise NotAuthenticated("Your session has expired; please log in again.")
            user = session.get(User, auth.user_id or "")
            if user is None:
                raise NotAuthenticated(LOGGED_OUT)
            return self._access_token(user, auth.id)

    def end_session(self, token: str | None, refresh: str | None) -> None:
        """Revoke the session named by the access token (even an expired one: its signature
        still proves who issued it) or by the refresh token."""
        session_id = None
        if token:
            try:
                session_id = read_token(self.token_secret, token, verify_expiry=False).session_id
            except TokenInvalid:
                session_id = None
        if not session_id and not refresh:
            return
        condition = (
            AuthSession.id == session_id
            if session_id
            else AuthSession.refresh_hash == _hash_refresh(refresh or "")
        )
        with self.sessions.begin() as session:
            session.execute(
                update(AuthSession)
                .where(condition, AuthSession.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )

    def end_all_sessions(self, account_id: str, keep: str | None = None) -> None:
        """Every session on the account ends: the user's, and any guest session that still
        points at it (a guest who became this user); all but `keep`, when given."""
        with self.sessions.begin() as session:
            session.execute(
                update(AuthSession)
                .where(
                    AuthSession.account_id == account_id,
                    AuthSession.revoked_at.is_(None),
                    AuthSession.id != (keep or ""),
                )
                .values(revoked_at=utcnow())
            )

    # Guests

    def guest_session(self, fingerprint: str, distributor: str, address: str) -> GuestSession:
        """A new guest session for a browser fingerprint: the fingerprint's account (created
        with its free credits the first time, only once) and a token naming a new session."""
        account = self._guest_account_for(fingerprint, distributor, address)
        with self.sessions.begin() as session:
            auth = AuthSession(
                kind=SessionKind.GUEST,
                account_id=account.id,
                refresh_hash=_hash_refresh(secrets.token_urlsafe(32)),  # guests never refresh
                expires_at=utcnow() + timedelta(seconds=self.settings.guest_token_ttl_seconds),
            )
            session.add(auth)
            session.flush()
            session_id = auth.id
            balance = credits.get_balance(session, account.id)
        token = issue_token(
            self.token_secret,
            account_id=account.id,
            kind=AccountKind.GUEST,
            distributor_id=account.distributor_id,
            ttl_seconds=self.settings.guest_token_ttl_seconds,
            session_id=session_id,
        )
        return GuestSession(token, account.id, balance.available)

    def _guest_account_for(self, fingerprint: str, distributor: str, address: str) -> Account:
        for _ in range(3):
            with self.sessions() as session:
                account = session.execute(
                    select(Account).where(Account.fingerprint == fingerprint)
                ).scalar_one_or_none()
                if account is not None:
                    return account
            # A new browser from an address that has made too many today is refused; the first
            # few get the free credits, the rest start at 0 (a shared office or NAT still works,
            # a script minting credits with new fingerprints does not).
            day, ip, limits = timedelta(days=1), ratelimit.address_key(address), self.settings
            ratelimit.hit(
                self.sessions, [f"guest-new:ip:{ip}"], limits.guests_per_address_per_day, day
            )
            try:
                ratelimit.hit(
                    self.sessions,
                    [f"guest-free:ip:{ip}"],
                    limits.free_guests_per_address_per_day,
                    day,
                )
                free = limits.guest_free_credits
            except ratelimit.RateLimited:
                free = 0
            try:
                with self.sessions.begin() as session:
                    account = Account(
                        kind=AccountKind.GUEST, fingerprint=fingerprint, distributor_id=distributor
                    )
                    session.add(account)
            except IntegrityError:
                continue  # another request created it first; read it back
            if free:
                credits.grant(
                    self.sessions,
                    account.id,
                    free=free,
                    key=f"guest-grant:{fingerprint}",
                    reference=fingerprint,
                )
            return account
        raise RuntimeError("could not create the guest account: too much contention")

    def calling_guest(self, bearer: str | None) -> Principal | None:
        """The open guest session the request's bearer token names, if it names one."""
        if not bearer:
            return None
        try:
            principal = self.authenticate(bearer, None)
        except NotAuthenticated:
            return None
        return principal if principal.kind == AccountKind.GUEST else None

    def _guest_account(self, fingerprint: str | None, caller: Principal | None) -> Account | None:
        """The guest account a browser brings to a sign-up or login: the one its fingerprint
        names, else the one its guest token names (a client that sends no fingerprint)."""
        with self.sessions() as session:
            for condition in (
                Account.fingerprint == fingerprint if fingerprint else None,
                Account.id == caller.account_id if caller else None,
            ):
                if condition is None:
                    continue
                account = session.execute(
                    select(Account).where(condition, Account.kind == AccountKind.GUEST)
                ).scalar_one_or_none()
                if account is not None:
                    return account
        return None

    def _end_calling_guest(self, caller: Principal | None) -> None:
        """The guest session the request came with ends, whichever guest it belongs to and
        whatever the other headers said: the browser is a user's now."""
        if caller is not None and caller.session_id:
            with self.sessions.begin() as session:
                session.execute(
                    update(AuthSession)
                    .where(AuthSession.id == caller.session_id, AuthSession.revoked_at.is_(None))
                    .values(revoked_at=utcnow())
                )

    def _end_guest_sessions(self, account_id: str) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(AuthSession)
                .where(
                    AuthSession.account_id == account_id,
                    AuthSession.kind == SessionKind.GUEST,
                    AuthSession.revoked_at.is_(None),
                )
                .values(revoked_at=utcnow())
            )

    def adopt_guest_work(
        self, user: User, fingerprint: str | None, caller: Principal | None = None
    ) -> None:
        """A guest who logs in keeps what they made: their generations and uploads move to the
        account, and the guest's sessions end (the calling one too, whatever else was sent).
        Their remaining guest credits stay behind: free credits are granted once."""
        self._end_calling_guest(caller)
        guest = self._guest_account(fingerprint, caller)
        if guest is None or guest.id == user.account_id:
            return
        with self.sessions.begin() as session:
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
                update(Account)
                .where(Account.id == guest.id)
                .values(kind=AccountKind.MERGED, fingerprint=None)
            )
        self._end_guest_sessions(guest.id)

    # Users

    def _find_user(self, email: str) -> User | None:
        with self.sessions() as session:
            return session.execute(select(User).where(User.email == email)).scalar_one_or_none()

    def get_user(self, user_id: str) -> User:
        with self.sessions() as session:
            user = session.get(User, user_id)
        if user is None:
            raise NotAuthenticated("Please log in again.")
        return user

    def rename(self, user_id: str, name: str) -> User:
        with self.sessions.begin() as session:
            user = session.get(User, user_id)
            if user is None:
                raise NotAuthenticated("Please log in again.")
            user.name = name.strip()
        return user

    def _create_user(
        self,
        email: str,
        name: str,
        password_hash: str | None,
        distributor: str,
        fingerprint: str | None,
        caller: Principal | None = None,
    ) -> User:
        """A new, verified user with the sign-up credits (once per email).

        A guest on the same browser becomes the user: their generations and leftover credits
        stay, the fingerprint is released so a later guest session starts empty (the guest's
        free credits are keyed by fingerprint and are never granted again), and the guest's
        sessions end, the calling one too: the old guest token must not reach the user's
        account.
        """
        guest = self._guest_account(fingerprint, caller)
        with self.sessions.begin() as session:
            if guest is not None:
                account_id = guest.id
                session.execute(
                    update(Account)
                    .where(Account.id == guest.id)
                    .values(kind=AccountKind.USER, fingerprint=None)
                )
            else:
                account = Account(kind=AccountKind.USER, distributor_id=distributor)
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
        if guest is not None:
            self._end_guest_sessions(guest.id)
        self._end_calling_guest(caller)
        credits.grant(
            self.sessions,
            user.account_id,
            free=self.settings.signup_free_credits,
            key=f"signup-grant:{email}",
            reference=user.id,
        )
        return user

    # Sign-up

    def request_signup_code(self, raw_email: str, address: str) -> mail.Mail:
        email = normalise_email(raw_email)
        if self._find_user(email) is not None:
            raise Refused(EMAIL_TAKEN)
        self.limit("signup-code", email, address, CODE_LIMIT, 4)
        return self._code_mail(email, CodePurpose.SIGNUP)

    def _code_mail(self, email: str, purpose: CodePurpose) -> mail.Mail:
        issued = codes.issue(self.sessions, self.code_secret, email, purpose)
        what = "finish signing up" if purpose == CodePurpose.SIGNUP else "reset your password"
        return mail.Mail(
            to=email,
            subject=f"Your MetaModel code: {issued.code}",
            body=f"Your code to {what} is {issued.code}.\n\nIt is valid for 10 minutes. "
            "If you did not ask for it, you can ignore this mail.\n",
            kind=f"{purpose}-code",
            dedupe_key=f"code:{issued.id}",
        )

    def check_code(
        self, raw_email: str, otp: str, purpose: CodePurpose, consume: bool = False
    ) -> str:
        email = normalise_email(raw_email)
        codes.check(self.sessions, self.code_secret, email, purpose, otp, consume)
        return email

    def signup(
        self,
        raw_email: str,
        otp: str,
        name: str,
        password: str,
        distributor: str,
        fingerprint: str | None,
        remember: bool,
        bearer: str | None = None,
    ) -> SessionTokens:
        problem = password_problem(password)
        if problem:
            raise InvalidInput(problem)
        email = normalise_email(raw_email)
        if self._find_user(email) is not None:
            raise Refused(EMAIL_TAKEN)
        self.check_code(email, otp, CodePurpose.SIGNUP, consume=True)
        try:
            user = self._create_user(
                email,
                name.strip(),
                hash_password(password),
                distributor,
                fingerprint,
                self.calling_guest(bearer),
            )
        except IntegrityError:
            raise Refused(EMAIL_TAKEN) from None
        return self.start_session(user, remember)

    # Login

    def login(
        self,
        raw_email: str,
        password: str,
        fingerprint: str | None,
        address: str,
        remember: bool,
        device_cookie: str | None = None,
        bearer: str | None = None,
    ) -> SessionTokens:
        if not is_email(raw_email):
            raise Refused(BAD_EMAIL)
        email = normalise_email(raw_email)
        self._limit_login(email, address, device_cookie)
        user = self._find_user(email)
        # Always verify (against a dummy hash for unknown emails): the answer takes as long
        # either way.
        if not verify_password(user.password_hash if user else None, password) or user is None:
            raise Refused(WRONG_LOGIN)
        self.adopt_guest_work(user, fingerprint, self.calling_guest(bearer))
        return self.start_session(user, remember)

    def _limit_login(self, email: str, address: str, device_cookie: str | None) -> None:
        """Count a login attempt: on the browser's own device bucket when it is one this
        email signed in from, else on the (email, address) pair, the email's ceiling and the
        address."""
        count, window = LOGIN_LIMIT
        device = known_device(self.token_secret, device_cookie, email)
        if device is not None:
            ratelimit.hit(self.sessions, [f"login:device:{device}"], count, window)
            return
        ip = ratelimit.address_key(address)
        ceiling = f"login:email:{email}"
        limits = {
            f"login:pair:{email}:{ip}": count,
            ceiling: LOGIN_EMAIL_CEILING,
            f"login:ip:{ip}": LOGIN_ADDRESS_LIMIT,
        }
        try:
            ratelimit.hit_each(self.sessions, limits, window)
        except ratelimit.RateLimited as limited:
            if limited.bucket != ceiling:
                raise
            wait = ratelimit.wait_phrase(limited.retry_after)
            raise ratelimit.RateLimited(
                limited.retry_after, ceiling, CEILING_MESSAGE.format(wait=wait)
            ) from None

    def google_login(
        self,
        access_token_value: str,
        name_hint: str,
        distributor: str,
        fingerprint: str | None,
        address: str,
        remember: bool,
        bearer: str | None = None,
    ) -> SessionTokens:
        """Verify the Google access token with Google's user-info endpoint and trust only the
        email it returns (never the one in the request)."""
        self.limit("google", "-", address, (60, timedelta(minutes=15)), 1)
        if not access_token_value.isascii() or not access_token_value.isprintable():
            # No real token has other characters, and they cannot go into an HTTP header.
            raise Refused("Google did not accept this sign-in. Please try again.")
        try:
            response = httpx.get(
                self.settings.google_userinfo_url,
                timeout=10,
                headers={"Authorization": f"Bearer {access_token_value}"},
            )
        except httpx.HTTPError:
            raise UpstreamFailed("Google could not be reached. Please try again later.") from None
        if response.status_code != 200:
            raise Refused("Google did not accept this sign-in. Please try again.")
        info = response.json()
        email = str(info.get("email") or "").strip().lower()
        if not is_email(email) or info.get("email_verified") is False:
            raise Refused("Your Google account has no verified email address.")
        name = str(info.get("name") or name_hint or email.split("@")[0])[:128]
        user = self._find_user(email)
        caller = self.calling_guest(bearer)
        if user is None:
            try:
                user = self._create_user(email, name, None, distributor, fingerprint, caller)
            except IntegrityError:  # created by a concurrent request a moment ago
                user = self._find_user(email)
                if user is None:
                    raise
                self.adopt_guest_work(user, fingerprint, caller)
        else:
            self.adopt_guest_work(user, fingerprint, caller)
        return self.start_session(user, remember)

    # Password reset: the same answers whether or not the email has an account.

    def request_reset_code(self, raw_email: str, address: str) -> mail.Mail | None:
        email = normalise_email(raw_email)
        self.limit("reset-code", email, address, CODE_LIMIT, 4)
        if self._find_user(email) is None:
            return None
        try:
            return self._code_mail(email, CodePurpose.RESET)
        except codes.ResendTooSoon:
            return None  # asked again too soon: same answer, the earlier code still works

    def reset_password(self, raw_email: str, otp: str, password: str, address: str) -> str:
        """Set the new password and end every session; the browser's new device cookie (the
        mailed code proved the mailbox, so this browser is the owner's from now on)."""
        problem = password_problem(password)
        if problem:
            raise InvalidInput(problem)
        email = normalise_email(raw_email)
        self.limit("reset", email, address, LOGIN_LIMIT, 3)
        self.check_code(email, otp, CodePurpose.RESET, consume=True)
        with self.sessions.begin() as session:
            user = session.execute(select(User).where(User.email == email)).scalar_one_or_none()
            if user is None:  # a code is only ever mailed to an existing account
                raise Refused("The code is wrong or has expired.")
            user.password_hash = hash_password(password)
            account_id = user.account_id
        self.end_all_sessions(account_id)
        return issue_device_cookie(self.token_secret, email)

    def change_password(self, principal: Principal, current: str, new: str) -> None:
        problem = password_problem(new)
        if problem:
            raise InvalidInput(problem)
        with self.sessions.begin() as session:
            user = session.get(User, principal.user_id or "")
            if user is None:
                raise NotAuthenticated("Please log in again.")
            if not verify_password(user.password_hash, current):
                raise Refused("The current password is incorrect.")
            user.password_hash = hash_password(new)
            account_id = user.account_id
        # Whoever else knew the old password is signed out; this browser stays signed in.
        self.end_all_sessions(account_id, keep=principal.session_id)
