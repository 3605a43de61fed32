"""Sliding-window rate limits kept in the database, so they hold across API processes.

A hit is atomic: concurrent requests cannot all count "4 so far" and each pass a limit of 5
(before, 30 concurrent hits passed a limit of 5 twenty times on PostgreSQL). PostgreSQL
serialises the hits on a bucket with a transaction-scoped advisory lock; SQLite with its one
write lock, taken by inserting the attempt before counting.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from core.db import SessionFactory
from core.errors import DomainError
from core.models.accounts import RateEvent
from core.models.base import as_utc, utcnow

# Events older than every window can go; each hit removes a few of them.
KEEP = timedelta(days=1)
PURGE_BATCH = 500


class RateLimited(DomainError):
    def __init__(
        self, retry_after: int, bucket: str = "", message: str = "", limit: int | None = None
    ) -> None:
        super().__init__(message or f"Too many attempts. Please {wait_phrase(retry_after)}.")
        self.retry_after = retry_after
        self.bucket = bucket  # the one that was full, for a caller that words it better
        self.limit = limit  # a published quota (the public API's): sent as RateLimit-* headers


def wait_phrase(retry_after: int) -> str:
    minutes = max(1, math.ceil(retry_after / 60))
    return f"wait {minutes} minute{'s' if minutes != 1 else ''} and try again"


def address_key(address: str) -> str:
    """The part of a client address a limit is keyed on: an IPv4 address, or the /64 network
    of an IPv6 one (one household or server gets a whole /64 and could rotate through it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:1.2.3.4 is the IPv4 client 1.2.3.4
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _serialise(session: Session, buckets: list[str]) -> None:
    if session.get_bind().dialect.name == "postgresql":
        # Sorted, so two hits on the same buckets never wait on each other crosswise.
        for bucket in sorted(buckets):
            session.execute(
                text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"),
                {"key": f"ratelimit:{bucket}"},
            )


def hit_each(sessions: SessionFactory, limits: Mapping[str, int], window: timedelta) -> None:
    """Count one attempt in every bucket, each with its own limit; if any bucket is already
    full, count nothing and raise RateLimited."""
    now = utcnow()
    since = now - window
    buckets = list(limits)
    with sessions.begin() as session:
        _serialise(session, buckets)
        # Inserting first takes SQLite's write lock before anything is counted.
        session.add_all(RateEvent(bucket=bucket, created_at=now) for bucket in buckets)
        session.flush()
        for bucket in buckets:
            count, oldest = session.execute(
                select(func.count(), func.min(RateEvent.created_at)).where(
                    RateEvent.bucket == bucket, RateEvent.created_at > since
                )
            ).one()
            if count > limits[bucket]:  # this attempt included
                retry = (as_utc(oldest) + window - now).total_seconds() if oldest else 60
                raise RateLimited(max(1, int(retry)), bucket)  # rolls the inserts back
        stale = (
            select(RateEvent.id)
            .where(RateEvent.created_at < now - KEEP)
            .limit(PURGE_BATCH)
            # Rows another hit is purging are left to it instead of waited for (PostgreSQL;
            # SQLite has one writer anyway).
            .with_for_update(skip_locked=True)
        )
        session.execute(delete(RateEvent).where(RateEvent.id.in_(stale)))


@dataclass(frozen=True)
class Quota:
    """Where a bucket stands after a counted request: what the RateLimit-* headers say."""

    limit: int
    remaining: int
    reset_seconds: int  # until the oldest counted request leaves the window


def hit_quota(sessions: SessionFactory, bucket: str, limit: int, window: timedelta) -> Quota:
    """Count one request in `bucket`; its quota afterwards, or RateLimited when it was full
    (nothing counted then)."""
    now = utcnow()
    with sessions.begin() as session:
        _serialise(session, [bucket])
        session.add(RateEvent(bucket=bucket, created_at=now))
        session.flush()
        count, oldest = session.execute(
            select(func.count(), func.min(RateEvent.created_at)).where(
                RateEvent.bucket == bucket, RateEvent.created_at > now - window
            )
        ).one()
        reset = max(1, math.ceil((as_utc(oldest) + window - now).total_seconds())) if oldest else 1
        if count > limit:
            raise RateLimited(reset, bucket, f"Rate limit reached: at most {limit} requests per "
                              f"{int(window.total_seconds())} s for this account (all its "
                              f"keys and sessions together). Retry after "
                              f"{reset} s.", limit=limit)
    return Quota(limit, max(0, limit - count), reset)


def hit(sessions: SessionFactory, buckets: list[str], limit: int, window: timedelta) -> None:
    """Count one attempt in each bucket; raise RateLimited if any is already full."""
    hit_each(sessions, dict.fromkeys(buckets, limit), window)


def hit_email_and_address(
    sessions: SessionFactory,
    action: str,
    email: str,
    address: str,
    rule: tuple[int, timedelta],
    per_address_factor: int,
) -> None:
    """Count one `action` (a code mailed, a password reset...) for the email and for the
    address: `rule` per email, `per_address_factor` times as many per address."""
    count, window = rule
    hit(sessions, [f"{action}:email:{email}"], count, window)
    hit(sessions, [f"{action}:ip:{address_key(address)}"], count * per_address_factor, window)
