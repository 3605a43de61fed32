"""Seed the pricing catalogue (planVersion 2) in INR and USD: three monthly plans and a one-time
credit pack. Prices are integers in minor units (paise, cents). Running it again changes
nothing that is already there: a plan id is never reused for a different price (a new price is
a new catalogue version)."""

from __future__ import annotations

from dataclasses import dataclass

from core.billing.pricing import CURRENT_PLAN_VERSION
from core.db import SessionFactory
from core.enums import Currency, PlanKind, RateInterval
from core.models.billing import Plan, PlanRate


@dataclass(frozen=True)
class SeedPlan:
    code: str
    name: str
    kind: PlanKind
    interval: RateInterval
    credits: int
    prices: dict[Currency, int]  # minor units
    features: tuple[str, ...]


PLANS = (
    SeedPlan(
        "starter", "Starter", PlanKind.SUBSCRIPTION, RateInterval.MONTH, 100,
        {Currency.INR: 149_900, Currency.USD: 1_900},
        ("100 image credits every month", "Model swap and background replace",
         "High-resolution downloads", "Email support"),
    ),
    SeedPlan(
        "pro", "Pro", PlanKind.SUBSCRIPTION, RateInterval.MONTH, 500,
        {Currency.INR: 599_900, Currency.USD: 6_900},
        ("500 image credits every month", "Everything in Starter",
         "Priority processing", "Bulk ZIP downloads"),
    ),
    SeedPlan(
        "business", "Business", PlanKind.SUBSCRIPTION, RateInterval.MONTH, 2000,
        {Currency.INR: 1_999_900, Currency.USD: 22_900},
        ("2000 image credits every month", "Everything in Pro",
         "Retouching by our studio team", "Dedicated account manager"),
    ),
    SeedPlan(
        "pack", "Credit Pack", PlanKind.PACK, RateInterval.ONCE, 50,
        {Currency.INR: 99_900, Currency.USD: 1_200},
        ("50 image credits, paid once", "Credits never expire",
         "Model swap and background replace", "No subscription"),
    ),
)


def plan_id(code: str, currency: Currency, version: int = CURRENT_PLAN_VERSION) -> str:
    return f"v{version}-{code}-{currency.lower()}"


def rate_code(code: str, currency: Currency, interval: RateInterval,
              version: int = CURRENT_PLAN_VERSION) -> str:
    return f"{plan_id(code, currency, version)}-{interval}"


def seed_plans(sessions: SessionFactory) -> int:
    """Record every plan (and its rate) that is missing; returns how many plans were added."""
    added = 0
    with sessions.begin() as session:
        for sort, item in enumerate(PLANS):
            for currency, value in item.prices.items():
                pid = plan_id(item.code, currency)
                if session.get(Plan, pid) is not None:
                    continue
                session.add(Plan(
                    id=pid, version=CURRENT_PLAN_VERSION, code=item.code, name=item.name,
                    kind=item.kind, currency=currency, feature_list=list(item.features),
                    sort=sort,
                ))
                session.flush()
                session.add(PlanRate(
                    id=rate_code(item.code, currency, item.interval), plan_id=pid, value=value,
                    interval=item.interval, credits=item.credits, sort=0,
                ))
                added += 1
    return added
