"""The closed sets of values the product stores and sends: one definition each, used by the
table models, the API schemas and the workflow contracts alike (never string literals).

StrEnum members compare equal to their values and serialise as plain strings, so stored rows,
JSON bodies and Temporal payloads stay exactly as they were.
"""

from __future__ import annotations

from enum import StrEnum


class Service(StrEnum):
    """What a generation does (a "service" in /imageedit)."""

    BODY_SWAP = "bodySwap"
    BURST_REPLACE = "burstreplace"


class GenerationStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"


# Tasks go through the same states as their generation.
TaskStatus = GenerationStatus

TERMINAL_STATUSES = (GenerationStatus.COMPLETED, GenerationStatus.FAILED)


class AccountKind(StrEnum):
    GUEST = "guest"
    USER = "user"
    # A guest account whose work moved to a user's account when they logged in.
    MERGED = "merged"


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
