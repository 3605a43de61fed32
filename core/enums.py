"""The closed sets of values the product stores and sends: one definition each, used by the
table models, the API schemas and the workflow contracts alike (never string literals).

StrEnum members compare equal to their values and serialise as plain strings, so stored rows,
JSON bodies and Temporal payloads stay exactly as they were.
"""

from __future__ import annotations

from enum import StrEnum


class GenerationKind(StrEnum):
    """What a generation does: its kind (a "service" on the wire; the API schemas name it so
    through api/schemas/wire.py)."""

    BODY_SWAP = "bodySwap"
    BURST_REPLACE = "burstreplace"


# The states of a generation, and of each of its tasks (the same ones).
class GenerationStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


TERMINAL_STATUSES = (GenerationStatus.COMPLETED, GenerationStatus.FAILED)


class ApiKeyMode(StrEnum):
    """An API key's mode: live keys spend credits; test keys run the same pipeline for free
    (issue 23; test keys are refused until test mode exists)."""

    LIVE = "live"
    TEST = "test"


class AccountKind(StrEnum):
    GUEST = "guest"
    USER = "user"
    # A guest account whose work moved to a user's account when they logged in.
    MERGED = "merged"
    # Owns the showcase's demo pairs made by the seed; no user or browser can log in to it.
    DEMO = "demo"


class LedgerKind(StrEnum):
    GRANT = "grant"
    CHARGE = "charge"
    REFUND = "refund"
    PURCHASE = "purchase"


class HoldStatus(StrEnum):
    """A reservation of credits made at submit (two-phase: posted by the charge, or voided)."""

    PENDING = "pending"
    POSTED = "posted"
    VOIDED = "voided"


class CatalogKind(StrEnum):
    MODEL = "model"
    BACKGROUND = "background"
    SAMPLE = "sample"


class CatalogVisibility(StrEnum):
    """Who a catalog item is listed for: everyone, or nobody yet (kept for a per-customer
    catalog). The public pickers list public items only."""

    PUBLIC = "public"
    PRIVATE = "private"


class Gender(StrEnum):
    """How a digital model presents, for the model picker's filter."""

    FEMALE = "female"
    MALE = "male"


class SkinTone(StrEnum):
    """A digital model's skin tone, lightest first (the filter offers them in this order)."""

    FAIR = "fair"
    LIGHT = "light"
    MEDIUM = "medium"
    TAN = "tan"
    DEEP = "deep"


class BodyType(StrEnum):
    """A digital model's build."""

    SLIM = "slim"
    ATHLETIC = "athletic"
    CURVY = "curvy"
    PLUS = "plus"


class CodePurpose(StrEnum):
    SIGNUP = "signup"
    RESET = "reset"


class UserRole(StrEnum):
    USER = "user"
    # Operators: curate the showcase, manage the catalog, attach retouched images.
    ADMIN = "admin"


class Rating(StrEnum):
    """A user's verdict on one generated image."""

    UP = "up"
    DOWN = "down"


class ContactTopic(StrEnum):
    GENERAL = "general"
    BILLING = "billing"
    TECHNICAL = "technical"
    APPOINTMENT = "appointment"


class SessionKind(StrEnum):
    """Server-side sessions: a signed-in user's, or a guest browser's."""

    USER = "user"
    GUEST = "guest"


# Commerce


class Currency(StrEnum):
    """Prices are integers in the currency's minor unit (paise, cents), never floats."""

    INR = "INR"
    USD = "USD"


class PlanKind(StrEnum):
    """A one-time credit pack, or a monthly subscription plan."""

    PACK = "pack"
    SUBSCRIPTION = "subscription"


class RateInterval(StrEnum):
    """How often a rate is charged: once (a pack) or every month (a plan)."""

    ONCE = "once"
    MONTH = "month"


class OrderStatus(StrEnum):
    """A checkout's life: pending until the provider says paid (and the credits are granted),
    failed (declined) or canceled; expired when it was abandoned (never paid within the
    provider's checkout lifetime, core/billing/orders.py expire_abandoned). A payment event
    that does not match the order leaves it pending."""

    PENDING = "pending"
    PAID = "paid"
    FAILED = "failed"
    CANCELED = "canceled"
    EXPIRED = "expired"


class SubscriptionStatus(StrEnum):
    """A monthly plan's life: active (paid up) → past_due (a renewal failed; retried after a
    grace interval) → canceled (ended: canceled at a period end, or unpaid)."""

    ACTIVE = "active"
    PAST_DUE = "past_due"
    CANCELED = "canceled"
