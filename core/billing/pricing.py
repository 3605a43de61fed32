"""The pricing catalogue: plans by version and currency, and which currency a visitor sees."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.enums import Currency
from core.errors import InvalidInput
from core.models.billing import Plan, PlanRate

CURRENT_PLAN_VERSION = 2
INDIA_TIMEZONES = frozenset({"asia/kolkata", "asia/calcutta"})


def preferred_currency(accept_language: str | None, timezone: str | None) -> Currency:
    """INR for visitors from India (a language tag with the IN region in Accept-Language, or
    the browser's time zone Asia/Kolkata, which the web app sends as x-timezone); else USD."""
    if timezone and timezone.strip().lower() in INDIA_TIMEZONES:
        return Currency.INR
    for entry in (accept_language or "").split(","):
        tag = entry.split(";", 1)[0].strip()
        subtags = tag.split("-")[1:]
        # The region is the two-letter subtag after the language (and maybe a script):
        # en-IN, hi-IN, en-Latn-IN; never the language itself ("in" is not a region).
        if any(len(sub) == 2 and sub.upper() == "IN" for sub in subtags):
            return Currency.INR
    return Currency.USD


@dataclass(frozen=True)
class PricedPlan:
    plan: Plan
    rates: list[PlanRate]


def pricing(session: Session, version: int, currency: Currency) -> list[PricedPlan]:
    """The active plans of a catalogue version in one currency, in display order."""
    plans = session.execute(
        select(Plan)
        .where(Plan.version == version, Plan.currency == currency, Plan.active.is_(True))
        .order_by(Plan.sort, Plan.id)
    ).scalars().all()
    rates: dict[str, list[PlanRate]] = {plan.id: [] for plan in plans}
    if plans:
        for rate in session.execute(
            select(PlanRate)
            .where(PlanRate.plan_id.in_(list(rates)))
            .order_by(PlanRate.sort, PlanRate.id)
        ).scalars():
            rates[rate.plan_id].append(rate)
    return [PricedPlan(plan, rates[plan.id]) for plan in plans]


def find_rate(session: Session, piid: str, rcid: str, currency: str) -> tuple[Plan, PlanRate]:
    """The plan and rate a checkout asks for, or InvalidInput saying what does not fit."""
    plan = session.get(Plan, piid)
    if plan is None or not plan.active:
        raise InvalidInput("piid: That plan does not exist.")
    rate = session.get(PlanRate, rcid)
    if rate is None or rate.plan_id != plan.id:
        raise InvalidInput(f"rcid: That rate is not one of the {plan.name} plan's rates.")
    if currency.upper() != plan.currency:
        raise InvalidInput(
            f"currency: The {plan.name} plan is priced in {plan.currency}, not {currency}."
        )
    return plan, rate
