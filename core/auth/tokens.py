"""Access tokens (JWT, HS256). Every token names a server-side session (a user's or a guest
browser's), so ending the session ends the token however long it had left."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import jwt


@dataclass(frozen=True)
class Principal:
    """Who is calling: the account that owns credits and generations."""

    account_id: str
    kind: str  # AccountKind: guest | user
    distributor_id: str
    user_id: str | None = None
    session_id: str | None = None
    # The mode of what the caller may see and touch (issue 33): False only for a test API key
    # (mm_test_), which sees test objects only; live keys, sessions and guests see live ones.
    # Ownership checks compare it with the object's own mode (core/auth/ownership.py).
    livemode: bool = True


class TokenInvalid(Exception):
    pass


def issue_token(
    secret: str,
    *,
    account_id: str,
    kind: str,
    distributor_id: str,
    ttl_seconds: int,
    user_id: str | None = None,
    session_id: str | None = None,
) -> str:
    now = int(time.time())
    claims: dict[str, object] = {
        "sub": account_id,
        "kind": kind,
        "did": distributor_id,
        "iat": now,
        "exp": now + ttl_seconds,
        "jti": uuid.uuid4().hex,
    }
    if user_id:
        claims["uid"] = user_id
    if session_id:
        claims["sid"] = session_id
    return jwt.encode(claims, secret, algorithm="HS256")


def read_token(secret: str, token: str, verify_expiry: bool = True) -> Principal:
    return read_token_with_expiry(secret, token, verify_expiry)[0]


def read_token_with_expiry(
    secret: str, token: str, verify_expiry: bool = True
) -> tuple[Principal, float]:
    """The token's principal and its expiry (seconds since the epoch)."""
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=["HS256"],
            options={"require": ["sub", "exp", "did"], "verify_exp": verify_expiry},
        )
    except jwt.PyJWTError as error:
        raise TokenInvalid(str(error)) from None
    principal = Principal(
        account_id=str(claims["sub"]),
        kind=str(claims.get("kind", "guest")),
        distributor_id=str(claims["did"]),
        user_id=str(claims["uid"]) if claims.get("uid") else None,
        session_id=str(claims["sid"]) if claims.get("sid") else None,
    )
    return principal, float(claims["exp"])
