"""Sliding-window rate limits kept in the database, so they hold across API processes."""

from __future__ import annotations

import math
from datetime import timedelta

from sqlalchemy import delete, func, select

from core.db import SessionFactory
from core.models import RateEvent, as_utc, utcnow


class RateLimited(Exception):
    def __init__(self, retry_after: int) -> None:
        minutes = max(1, math.ceil(retry_after / 60))
        super().__init__(
            f"Too many attempts. Please wait {minutes} minute{'s' if minutes != 1 else ''} "
            "and try again."
        )
        self.retry_after = retry_after


def hit(sessions: SessionFactory, buckets: list[str], limit: int, window: timedelta) -> None:
    """Count one attempt in each bucket; raise RateLimited if any is already full."""
    now = utcnow()
    since = now - window
    with sessions.begin() as session:
        for bucket in buckets:
            count, oldest = session.execute(
                select(func.count(), func.min(RateEvent.created_at)).where(
                    RateEvent.bucket == bucket, RateEvent.created_at > since
                )
            ).one()
            if count >= limit:
                retry = (as_utc(oldest) + window - now).total_seconds() if oldest else 60
                raise RateLimited(max(1, int(retry)))
        for bucket in buckets:
            session.add(RateEvent(bucket=bucket, created_at=now))
        # Old events are no longer needed by any window.
        session.execute(delete(RateEvent).where(RateEvent.created_at < now - timedelta(days=1)))
