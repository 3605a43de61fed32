"""Credit usage from the ledger: per-day totals (UTC days) and the movements of a date range.

Every day of the range has its totals (0 where nothing moved): credits spent on generations,
given back by refunds, and granted free (guest and sign-up credits) or paid (purchases and
subscription periods). The movements themselves come newest first, a page at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import func, select

from core.db import SessionFactory
from core.enums import GenerationKind, LedgerKind
from core.errors import InvalidInput
from core.models.accounts import LedgerEntry
from core.models.base import utcnow
from core.models.billing import Order, Subscription
from core.models.generations import Generation

# A year, leap day included: 2024-01-01..2024-12-31 is allowed, anything longer is not.
MAX_USAGE_DAYS = 366
DEFAULT_USAGE_DAYS = 30
# The days a query may name: from before the first ledger entry to a year ahead (a browser's
# "today" may run ahead of UTC). Anything outside is refused with the bounds, instead of
# overflowing the calendar (9999-12-31 plus a day, 0001-01-01 less thirty).
EARLIEST_USAGE_DAY = date(2000, 1, 1)
LATEST_USAGE_DAYS_AHEAD = 366
MAX_PAGE_SIZE = 100
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")

SERVICE_NAMES: dict[str, str] = {
    GenerationKind.BODY_SWAP: "Model swap",
    GenerationKind.BURST_REPLACE: "Background replace",
}


@dataclass(frozen=True)
class DayTotals:
    day: date
    spent: int = 0
    refunded: int = 0
    granted_free: int = 0
    granted_paid: int = 0


@dataclass(frozen=True)
class UsageEntry:
    id: int
    created_at: datetime
    kind: str  # LedgerKind
    delta_free: int
    delta_paid: int
    reference: str | None
    description: str


@dataclass(frozen=True)
class CreditUsageReport:
    from_date: date
    to_date: date
    days: list[DayTotals]
    entries: list[UsageEntry]
    total_entries: int
    page: int
    page_size: int


def parse_day(value: str | None, field: str) -> date | None:
    """A YYYY-MM-DD day, None when not given; InvalidInput naming the field otherwise."""
    if value is None or value == "":
        return None
    if not _ISO_DAY.fullmatch(value):
        raise InvalidInput(f"{field}: Use a date as YYYY-MM-DD, such as 2026-01-31.")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise InvalidInput(f"{field}: {value} is not a date of the calendar.") from None


def usage_range(from_date: date | None, to_date: date | None, today: date) -> tuple[date, date]:
    """The range asked for: the last 30 days up to today by default, never reversed, at most
    a year, and within EARLIEST_USAGE_DAY and a year from today."""
    latest = today + timedelta(days=LATEST_USAGE_DAYS_AHEAD)
    for field, day in (("fromDate", from_date), ("toDate", to_date)):
        if day is not None and not EARLIEST_USAGE_DAY <= day <= latest:
            raise InvalidInput(
                f"{field}: choose a day from {EARLIEST_USAGE_DAY.isoformat()} "
                f"to {latest.isoformat()}."
            )
    end = to_date or today
    start = from_date or end - timedelta(days=DEFAULT_USAGE_DAYS - 1)
    if start > end:
        raise InvalidInput("fromDate must not be after toDate.")
    if (end - start).days >= MAX_USAGE_DAYS:
        raise InvalidInput(f"The range is over a year: choose at most {MAX_USAGE_DAYS} days.")
    return start, end


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def add_to_day(totals: DayTotals, kind: str, delta_free: int, delta_paid: int) -> DayTotals:
    """One movement counted into its day's totals."""
    if kind == LedgerKind.CHARGE:
        return replace(totals, spent=totals.spent - (delta_free + delta_paid))
    if kind == LedgerKind.REFUND:
        return replace(totals, refunded=totals.refunded + delta_free + delta_paid)
    if kind in (LedgerKind.GRANT, LedgerKind.PURCHASE):
        return replace(
            totals,
            granted_free=totals.granted_free + delta_free,
            granted_paid=totals.granted_paid + delta_paid,
        )
    return totals


def credit_usage(
    sessions: SessionFactory,
    account_id: str,
    from_date: date | None,
    to_date: date | None,
    page: int = 1,
    page_size: int = 20,
) -> CreditUsageReport:
    start_day, end_day = usage_range(from_date, to_date, utcnow().date())
    page = max(page, 1)
    page_size = min(max(page_size, 1), MAX_PAGE_SIZE)
    start = datetime.combine(start_day, time.min, tzinfo=UTC)
    end = datetime.combine(end_day + timedelta(days=1), time.min, tzinfo=UTC)
    in_range = (
        LedgerEntry.account_id == account_id,
        LedgerEntry.created_at >= start,
        LedgerEntry.created_at < end,
    )
    days = {
        start_day + timedelta(days=n): DayTotals(start_day + timedelta(days=n))
        for n in range((end_day - start_day).days + 1)
    }
    with sessions() as session:
        for kind, delta_free, delta_paid, created in session.execute(
            select(
                LedgerEntry.kind,
                LedgerEntry.delta_free,
                LedgerEntry.delta_paid,
                LedgerEntry.created_at,
            ).where(*in_range)
        ):
            day = _aware(created).astimezone(UTC).date()
            if day in days:
                days[day] = add_to_day(days[day], kind, int(delta_free), int(delta_paid))
        total = int(
            session.scalar(select(func.count()).select_from(LedgerEntry).where(*in_range)) or 0
        )
        rows = list(
            session.execute(
                select(LedgerEntry)
                .where(*in_range)
                .order_by(LedgerEntry.created_at.desc(), LedgerEntry.id.desc())
                .offset((page - 1) * page_size)
                .limit(page_size)
            ).scalars()
        )
        references = {row.reference for row in rows if row.reference}
        plans = dict(
            session.execute(
                select(Order.id, Order.plan_name).where(Order.id.in_(references))
            ).tuples().all()
        ) if references else {}
        upgrades = dict(
            session.execute(
                select(Subscription.id, Subscription.plan_name).where(
                    Subscription.id.in_(references)
                )
            ).tuples().all()
        ) if references else {}
        kinds = dict(
            session.execute(
                select(Generation.id, Generation.service).where(Generation.id.in_(references))
            ).tuples().all()
        ) if references else {}
    entries = [
        UsageEntry(
            id=row.id,
            created_at=_aware(row.created_at),
            kind=row.kind,
            delta_free=row.delta_free,
            delta_paid=row.delta_paid,
            reference=row.reference,
            description=describe(row, plans, upgrades, kinds),
        )
        for row in rows
    ]
    return CreditUsageReport(
        from_date=start_day,
        to_date=end_day,
        days=list(days.values()),
        entries=entries,
        total_entries=total,
        page=page,
        page_size=page_size,
    )


def describe(
    entry: LedgerEntry,
    plans: dict[str, str],
    upgrades: dict[str, str],
    kinds: dict[str, GenerationKind],
) -> str:
    """What a movement was, in words for the credit history."""
    reference = entry.reference or ""
    if entry.kind == LedgerKind.CHARGE:
        kind = SERVICE_NAMES.get(kinds.get(reference, ""))
        return f"{kind} images" if kind else "Images generated"
    if entry.kind == LedgerKind.REFUND:
        return "Refund for images that could not be made"
    if entry.kind == LedgerKind.PURCHASE:
        plan = plans.get(reference)
        if plan:
            return f"Purchased: {plan}"
        upgrade = upgrades.get(reference)
        return f"Plan upgrade: {upgrade}" if upgrade else "Paid credits"
    if entry.kind == LedgerKind.GRANT:
        return "Free credits"
    return entry.kind.capitalize()
