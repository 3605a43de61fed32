"""Sign-in sessions: who is calling, and a user's sessions started, refreshed and ended.

Every access token names a server-side session (AuthSession), a user's or a guest browser's:
logout, a password reset, "end all sessions" and a guest becoming a user end it for good.
A token verified moments ago is answered from memory (core/auth/recent.py); any change this
process makes to sessions, accounts or users empties that memory.

Synchronous (database): routes call it from a worker thread.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import ColumnElement, event, select, update
from sqlalchemy.orm import ORMExecuteState, Session

from core.auth.devices import issue_device_cookie
from core.auth.recent import RecentTokens
from core.auth.tokens import (
    Principal,
    TokenInvalid,
    issue_token,
    read_token,
    read_token_with_expiry,
)
from core.db import SessionFactory
from core.enums import AccountKind, SessionKind
from core.errors import NotAuthenticated
from core.models.accounts import Account, AuthSession, User
from core.models.base import as_utc, utcnow
from core.settings import Settings

LOGGED_OUT = "Unauthorised: please log in again."
GUEST_EXPIRED = "Your session has expired or is missing; please reload the page to start a new one."

# How long a verified token is taken on trust in this process (core/auth/recent.py): a logout
# in another API process reaches this one within it.
RECENT_TOKEN_SECONDS = 2.0
AUTH_TABLES = frozenset({"auth_sessions", "accounts", "users"})


@dataclass(frozen=True)
class SessionTokens:
    access: str
    refresh: str
    user: User
    remember: bool
    device: str  # the browser's new device cookie for the user's email


def hash_refresh(token: str) -> str:
    """Refresh tokens are stored only as this hash."""
    return hashlib.sha256(token.encode()).hexdigest()


class AuthSessions:
    """Bearer tokens checked against their sessions; users' sessions opened and closed."""

    def __init__(self, sessions: SessionFactory, settings: Settings, token_secret: str) -> None:
        self.sessions = sessions
        self.settings = settings
        self.token_secret = token_secret
        # Tokens verified moments ago; emptied by any change this process makes to sessions,
        # accounts or users. Build one AuthSessions per process: each registers its listeners.
        self.recent = RecentTokens(RECENT_TOKEN_SECONDS)
        event.listen(sessions, "do_orm_execute", self._forget_on_update)
        event.listen(sessions, "after_flush", self._forget_on_flush)

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

    # A user's sessions

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

    def start(self, user: User, remember: bool) -> SessionTokens:
        refresh = secrets.token_urlsafe(32)
        with self.sessions.begin() as session:
            auth = AuthSession(
                kind=SessionKind.USER,
                user_id=user.id,
                account_id=user.account_id,
                refresh_hash=hash_refresh(refresh),
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

    def refresh(self, refresh: str) -> str:
        """A new access token for the session a refresh token names."""
        with self.sessions() as session:
            auth = session.execute(
                select(AuthSession).where(
                    AuthSession.refresh_hash == hash_refresh(refresh),
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

    def end(self, token: str | None, refresh: str | None) -> None:
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
            else AuthSession.refresh_hash == hash_refresh(refresh or "")
        )
        self._revoke(condition)

    def end_by_id(self, session_id: str) -> None:
        self._revoke(AuthSession.id == session_id)

    def end_all(self, account_id: str, keep: str | None = None) -> None:
        """Every session on the account ends: the user's, and any guest session that still
        points at it (a guest who became this user); all but `keep`, when given."""
        self._revoke(AuthSession.account_id == account_id, AuthSession.id != (keep or ""))

    def end_guest_sessions(self, account_id: str) -> None:
        self._revoke(AuthSession.account_id == account_id, AuthSession.kind == SessionKind.GUEST)

    def _revoke(self, *conditions: ColumnElement[bool]) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(AuthSession)
                .where(*conditions, AuthSession.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )
