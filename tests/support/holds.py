"""Helpers for the tests of credits reserved at submit and of generations never started: what
the API leaves behind when it dies between recording a generation and starting its workflow."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from core import credits
from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.generations.submit import GenerationSubmission, request_hash
from core.models.accounts import Account
from core.models.base import new_id, utcnow
from core.models.generations import Generation, GenerationImage
from tests.support.api_client import Guest


def account_of(db: SessionFactory, guest: Guest) -> str:
    with db() as session:
        account_id = session.execute(
            select(Account.id).where(Account.fingerprint == guest.fingerprint)
        ).scalar_one()
    return str(account_id)


def record_without_starting(db: SessionFactory, account_id: str, key: str) -> tuple[str, str]:
    """The rows and the reservation of a one-image background replace, no workflow. Returns
    (generation id, idempotency key)."""
    idempotency_key = new_id()
    request = GenerationSubmission(GenerationKind.BURST_REPLACE, None, "white", [key],
                                   idempotency_key, "metamodel", None)
    generation_id = new_id()

    def record(session: Session) -> None:
        session.add(Generation(
            id=generation_id, account_id=account_id, service=GenerationKind.BURST_REPLACE,
            status=GenerationStatus.QUEUED, background_id="white", credits=1,
            distributor_id="metamodel", idempotency_key=idempotency_key,
            request_hash=request_hash(request)))
        session.flush()
        session.add(GenerationImage(
            id=new_id(), generation_id=generation_id, position=0, input_key=key
        ))

    credits.reserve(db, account_id, generation_id, 1, record)
    return generation_id, idempotency_key


def backdate(db: SessionFactory, generation_id: str, by: timedelta) -> None:
    """As if the generation had been recorded `by` ago."""
    with db.begin() as session:
        session.execute(
            update(Generation)
            .where(Generation.id == generation_id)
            .values(created_at=utcnow() - by)
        )
