"""Guests: a browser without an account gets a guest account (by its fingerprint, with free
credits once) and a session; when it signs up or logs in, its work goes with it.

Synchronous (database): routes call it from a worker thread.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from core import credits, ratelimit
from core.auth.sessions import AuthSessions, hash_refresh
from core.auth.tokens import Principal, issue_token
from core.db import SessionFactory
from core.enums import AccountKind, SessionKind
from core.errors import NotAuthenticated
from core.models.accounts import Account, AuthSession, User
from core.models.base import utcnow
from core.models.generations import Generation, UploadedFile
from core.settings import Settings


@dataclass(frozen=True)
class GuestSession:
    token: str
    account_id: str
    credits: int
    # The browser's network had used up today's free guest credits when this guest was
    # created, so none were granted: the person is told so and offered the sign-up's.
    free_withheld: bool


def guest_grant_key(fingerprint: str) -> str:
    return f"guest-grant:{fingerprint}"


class Guests:
    """Guest accounts and their sessions."""

    def __init__(self, sessions: SessionFactory, settings: Settings, auth: AuthSessions) -> None:
        self.sessions = sessions
        self.settings = settings
        self.auth = auth

    def start_session(self, fingerprint: str, distributor: str, address: str) -> GuestSession:
        """A new guest session for a browser fingerprint: the fingerprint's account (created
        with its free credits the first time, only once) and a token naming a new session."""
        account = self._account_for(fingerprint, distributor, address)
        with self.sessions.begin() as session:
            auth = AuthSession(
                kind=SessionKind.GUEST,
                account_id=account.id,
                refresh_hash=hash_refresh(secrets.token_urlsafe(32)),  # guests never refresh
                expires_at=utcnow() + timedelta(seconds=self.settings.guest_token_ttl_seconds),
            )
            session.add(auth)
            session.flush()
            session_id = auth.id
            balance = credits.get_balance(session, account.id)
            withheld = self.settings.guest_free_credits > 0 and not credits.granted(
                session, guest_grant_key(fingerprint)
            )
        token = issue_token(
            self.auth.token_secret,
            account_id=account.id,
            kind=AccountKind.GUEST,
            distributor_id=account.distributor_id,
            ttl_seconds=self.settings.guest_token_ttl_seconds,
            session_id=session_id,
        )
        return GuestSession(token, account.id, balance.available, withheld)

    def _account_for(self, fingerprint: str, distributor: str, address: str) -> Account:
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
                    key=guest_grant_key(fingerprint),
                    reference=fingerprint,
                )
            return account
        raise RuntimeError("could not create the guest account: too much contention")

    def calling(self, bearer: str | None) -> Principal | None:
        """The open guest session the request's bearer token names, if it names one."""
        if not bearer:
            return None
        try:
            principal = self.auth.authenticate(bearer, None)
        except NotAuthenticated:
            return None
        return principal if principal.kind == AccountKind.GUEST else None

    def account_of(self, fingerprint: str | None, caller: Principal | None) -> Account | None:
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

    def end_calling(self, caller: Principal | None) -> None:
        """The guest session the request came with ends, whichever guest it belongs to and
        whatever the other headers said: the browser is a user's now."""
        if caller is not None and caller.session_id:
            self.auth.end_by_id(caller.session_id)

    def adopt_work(self, user: User, fingerprint: str | None, caller: Principal | None) -> None:
        """A guest who logs in keeps what they made: their generations and uploads move to the
        account, and the guest's sessions end (the calling one too, whatever else was sent).
        Their remaining guest credits stay behind: free credits are granted once."""
        self.end_calling(caller)
        guest = self.account_of(fingerprint, caller)
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
        self.auth.end_guest_sessions(guest.id)
