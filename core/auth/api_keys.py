"""API keys per account (issue 23): how a shop's program calls the public API.

A key is `mm_live_` + 32 random URL-safe characters (Stripe's habit: the prefix says what it is,
in logs and in secret scanners). Only its sha256 is stored; the secret is shown once, at
creation. A key acts for its account and can do what that account can, nothing more, and only
on the public routes (api/routers/public.py); revoked, it answers 401 at once. The public routes'
rate limit is the ACCOUNT's, shared by all its keys, sessions and guest tokens (issue 33 item 5:
one per key gave 20 keys 20 times the limit, and a revoked key's successor a fresh count), and
counted in the database so it holds across API processes; making keys has a limit of its own
(KEYS_PER_HOUR), so keys cannot be churned. A test key
(`mm_test_`) runs the same pipeline without touching the balance; its generations are
watermarked and seen only by test keys (and live ones only by live keys and the web app).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select, update

from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import AccountKind, ApiKeyMode
from core.errors import InvalidInput, NotAuthenticated, NotFound
from core.models.accounts import Account, ApiKey
from core.models.base import as_utc, utcnow
from core.ratelimit import Quota, RateLimited, hit, hit_quota, wait_phrase
from core.settings import Settings

PREFIXES = {ApiKeyMode.LIVE: "mm_live_", ApiKeyMode.TEST: "mm_test_"}
SECRET_BYTES = 24  # 32 URL-safe characters: 192 bits, out of reach of any guessing
SHOWN = 4  # random characters of the secret kept visible after the prefix
MAX_KEYS = 20  # live keys an account may hold at once
NAME_LIMIT = 64
LAST_USED_EVERY = timedelta(minutes=1)  # last_used_at is written at most this often per key
WINDOW = timedelta(minutes=1)
# Keys an account may create per hour: enough to fill all its slots at once, not to churn them.
KEYS_PER_HOUR = (MAX_KEYS, timedelta(hours=1))


def looks_like_key(token: str) -> bool:
    return token.startswith(tuple(PREFIXES.values()))


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class NewKey:
    key: ApiKey
    secret: str  # shown once


@dataclass(frozen=True)
class KeyCaller:
    """Who called with a key: its account (as a Principal, like a session's) and the key."""

    principal: Principal
    key_id: str
    mode: ApiKeyMode


class ApiKeys:
    def __init__(self, sessions: SessionFactory, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    def create(self, principal: Principal, name: str, mode: ApiKeyMode) -> NewKey:
        name = name.strip()
        if not name:
            raise InvalidInput("name: give the key a name, such as the program that will use it.")
        if len(name) > NAME_LIMIT:
            raise InvalidInput(f"name: at most {NAME_LIMIT} characters.")
        if principal.user_id is None:
            raise NotAuthenticated("Please log in to create API keys.")
        self._count_creation(principal.account_id)
        body = secrets.token_urlsafe(SECRET_BYTES)
        secret = PREFIXES[mode] + body
        with self.sessions.begin() as session:
            count = session.execute(
                select(func.count()).select_from(ApiKey).where(
                    ApiKey.account_id == principal.account_id, ApiKey.revoked_at.is_(None))
            ).scalar_one()
            if count >= MAX_KEYS:
                raise InvalidInput(f"You have {MAX_KEYS} keys already; revoke one first.")
            key = ApiKey(
                account_id=principal.account_id, user_id=principal.user_id, name=name,
                mode=mode, prefix=PREFIXES[mode] + body[:SHOWN], last4=body[-4:],
                secret_hash=secret_hash(secret),
            )
            session.add(key)
            session.flush()
            session.expunge(key)
        return NewKey(key, secret)

    def _count_creation(self, account_id: str) -> None:
        count, window = KEYS_PER_HOUR
        try:
            hit(self.sessions, [f"apikey-create:{account_id}"], count, window)
        except RateLimited as limited:
            raise RateLimited(
                limited.retry_after, limited.bucket,
                f"This account has created {count} API keys in the last hour. Please "
                f"{wait_phrase(limited.retry_after)}, or use one of the keys it has.") from None

    def list(self, principal: Principal) -> list[ApiKey]:
        """The account's keys that still work, newest first."""
        with self.sessions() as session:
            return list(session.execute(
                select(ApiKey).where(ApiKey.account_id == principal.account_id,
                                     ApiKey.revoked_at.is_(None))
                .order_by(ApiKey.created_at.desc(), ApiKey.id.desc())
            ).scalars())

    def revoke(self, principal: Principal, key_id: str) -> None:
        """Revoked for good (404 for a key that is not the caller's, or is revoked already)."""
        with self.sessions.begin() as session:
            done = session.execute(
                update(ApiKey)
                .where(ApiKey.id == key_id, ApiKey.account_id == principal.account_id,
                       ApiKey.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            ).rowcount  # type: ignore[attr-defined]
        if not done:
            raise NotFound("No such API key.")

    def authenticate(self, secret: str) -> KeyCaller:
        invalid = NotAuthenticated(
            "This API key is not valid (revoked, mistyped or never created): check "
            "Authorization: Bearer mm_live_...")
        if not looks_like_key(secret) or len(secret) > 128:
            raise invalid
        with self.sessions() as session:
            row = session.execute(
                select(ApiKey, Account.distributor_id, Account.kind)
                .join(Account, Account.id == ApiKey.account_id)
                .where(ApiKey.secret_hash == secret_hash(secret))
            ).one_or_none()
        if row is None:
            raise invalid
        key, distributor, kind = row
        if key.revoked_at is not None or kind != AccountKind.USER:
            raise invalid
        now = utcnow()
        if key.last_used_at is None or now - as_utc(key.last_used_at) >= LAST_USED_EVERY:
            with self.sessions.begin() as session:
                session.execute(update(ApiKey).where(ApiKey.id == key.id)
                                .values(last_used_at=now))
        principal = Principal(account_id=key.account_id, kind=AccountKind.USER,
                              distributor_id=distributor, user_id=key.user_id,
                              livemode=key.mode == ApiKeyMode.LIVE)
        return KeyCaller(principal, key.id, key.mode)

    def count_request(self, account_id: str) -> Quota:
        """One public-route request against the account's limit, whoever made it (any of its
        keys, a session, a guest token); RateLimited when it is used up."""
        return hit_quota(self.sessions, f"public:account:{account_id}",
                         self.settings.api_key_requests_per_minute, WINDOW)


__all__ = ["ApiKeys", "KeyCaller", "NewKey", "looks_like_key", "secret_hash"]
