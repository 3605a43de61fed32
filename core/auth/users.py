"""Users: created once verified (by a mailed code or by Google), read, renamed, and their
password changed.

Synchronous (database, Argon2): routes call it from a worker thread.
"""

from __future__ import annotations

from sqlalchemy import select, update

from core import credits
from core.auth.guests import Guests
from core.auth.passwords import hash_password, password_problem, verify_password
from core.auth.sessions import AuthSessions
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import AccountKind
from core.errors import InvalidInput, NotAuthenticated, Refused
from core.gst import parse_gstin
from core.models.accounts import Account, User
from core.models.base import utcnow
from core.settings import Settings

SIGN_IN_AGAIN = "Please log in again."


class Users:
    """The users of one database."""

    def __init__(
        self, sessions: SessionFactory, settings: Settings, auth: AuthSessions, guests: Guests
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.auth = auth
        self.guests = guests

    def find(self, email: str) -> User | None:
        with self.sessions() as session:
            return session.execute(select(User).where(User.email == email)).scalar_one_or_none()

    def get(self, user_id: str) -> User:
        with self.sessions() as session:
            user = session.get(User, user_id)
        if user is None:
            raise NotAuthenticated(SIGN_IN_AGAIN)
        return user

    def update_profile(self, user_id: str, name: str | None, gstin: str | None) -> User:
        """The user's name and/or GSTIN (None: unchanged; an empty GSTIN removes it). A GSTIN
        of the wrong form is refused (InvalidInput) and nothing changes."""
        checked = parse_gstin(gstin) if gstin is not None else None
        with self.sessions.begin() as session:
            user = session.get(User, user_id)
            if user is None:
                raise NotAuthenticated(SIGN_IN_AGAIN)
            if name is not None:
                user.name = name.strip()
            if gstin is not None:
                user.gstin = checked
        return user

    def change_password(self, principal: Principal, current: str, new: str) -> None:
        problem = password_problem(new)
        if problem:
            raise InvalidInput(problem)
        with self.sessions.begin() as session:
            user = session.get(User, principal.user_id or "")
            if user is None:
                raise NotAuthenticated(SIGN_IN_AGAIN)
            if not verify_password(user.password_hash, current):
                raise Refused("The current password is incorrect.")
            user.password_hash = hash_password(new)
            account_id = user.account_id
        # Whoever else knew the old password is signed out; this browser stays signed in.
        self.auth.end_all(account_id, keep=principal.session_id)

    def create(
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
        account. Raises IntegrityError when the email was taken a moment ago.
        """
        guest = self.guests.account_of(fingerprint, caller)
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
            self.auth.end_guest_sessions(guest.id)
        self.guests.end_calling(caller)
        credits.grant(
            self.sessions,
            user.account_id,
            free=self.settings.signup_free_credits,
            key=f"signup-grant:{email}",
            reference=user.id,
        )
        return user
