"""Credit movements: every change is a ledger entry plus the balance beside it, in one transaction.

Each movement has an idempotency key, so a retried activity or a repeated request never moves
credits twice. The balance update is a compare-and-swap on the account's version; on a conflict
(another movement won the race) the whole transaction is retried. This is correct on SQLite and
on PostgreSQL without database-specific locking.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from core.db import SessionFactory
from core.models import Account, LedgerEntry

_MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class Balance:
    free: int
    paid: int

    @property
    def total(self) -> int:
        return self.free + self.paid


class InsufficientCredits(Exception):
    def __init__(self, needed: int, available: int) -> None:
        super().__init__(
            f"Not enough credits: this needs {needed} credit{'s' if needed != 1 else ''} "
            f"and you have {available}."
        )
        self.needed = needed
        self.available = available


class _Conflict(Exception):
    """Another transaction changed the balance first; try again."""


def charge_key(generation_id: str) -> str:
    return f"charge:{generation_id}"


def refund_key(generation_id: str, part: str) -> str:
    return f"refund:{generation_id}:{part}"


def get_balance(session: Session, account_id: str) -> Balance:
    account = session.get(Account, account_id)
    if account is None:
        return Balance(0, 0)
    return Balance(account.free_credits, account.paid_credits)


def ledger_sum(session: Session, account_id: str) -> Balance:
    """The balance as the ledger alone says it is (used by checks and tests)."""
    row = session.execute(
        select(
            func.coalesce(func.sum(LedgerEntry.delta_free), 0),
            func.coalesce(func.sum(LedgerEntry.delta_paid), 0),
        ).where(LedgerEntry.account_id == account_id)
    ).one()
    return Balance(int(row[0]), int(row[1]))


def _load_account(session: Session, account_id: str) -> Account:
    """A fresh read of the account row (never a cached object from earlier in the session)."""
    return session.execute(
        select(Account)
        .where(Account.id == account_id)
        .execution_options(populate_existing=True)
    ).scalar_one()


def _move(
    session: Session,
    account: Account,
    delta_free: int,
    delta_paid: int,
    kind: str,
    key: str,
    reference: str | None,
) -> None:
    """Apply one movement inside the caller's transaction, or raise _Conflict.

    `account` must be the read the caller based its decision on: the update only lands if the
    row still has that version, so a decision made on a stale balance can never be applied.
    """
    result = session.execute(
        update(Account)
        .where(Account.id == account.id, Account.version == account.version)
        .values(
            free_credits=account.free_credits + delta_free,
            paid_credits=account.paid_credits + delta_paid,
            version=account.version + 1,
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise _Conflict()
    session.add(
        LedgerEntry(
            account_id=account.id,
            kind=kind,
            delta_free=delta_free,
            delta_paid=delta_paid,
            reference=reference,
            idempotency_key=key,
        )
    )
    session.flush()


def _existing(session: Session, key: str) -> LedgerEntry | None:
    return session.execute(
        select(LedgerEntry).where(LedgerEntry.idempotency_key == key)
    ).scalar_one_or_none()


def _retrying(attempt: int) -> None:
    # Jittered backoff so racing writers do not collide again in lockstep.
    time.sleep(random.uniform(0, 0.002 * min(attempt + 1, 20)))


def grant(
    sessions: SessionFactory,
    account_id: str,
    *,
    free: int = 0,
    paid: int = 0,
    key: str,
    kind: str = "grant",
    reference: str | None = None,
) -> bool:
    """Add credits once per key. Returns False when the key was already used."""
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                if _existing(session, key) is not None:
                    return False
                account = _load_account(session, account_id)
                _move(session, account, free, paid, kind, key, reference)
                return True
        except (_Conflict, IntegrityError, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not record the credit grant: too much contention")


@dataclass(frozen=True)
class ChargeResult:
    free: int
    paid: int
    already_charged: bool


def charge(
    sessions: SessionFactory, account_id: str, amount: int, *, generation_id: str
) -> ChargeResult:
    """Take `amount` credits for a generation, free credits first. Idempotent per generation.

    Raises InsufficientCredits (and changes nothing) when the balance does not cover it.
    """
    key = charge_key(generation_id)
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                done = _existing(session, key)
                if done is not None:
                    return ChargeResult(-done.delta_free, -done.delta_paid, True)
                account = _load_account(session, account_id)
                available = account.free_credits + account.paid_credits
                if available < amount:
                    raise InsufficientCredits(amount, available)
                use_free = min(account.free_credits, amount)
                use_paid = amount - use_free
                _move(session, account, -use_free, -use_paid, "charge", key, generation_id)
                return ChargeResult(use_free, use_paid, False)
        except (_Conflict, IntegrityError, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not record the charge: too much contention")


def refund(
    sessions: SessionFactory, account_id: str, amount: int, *, generation_id: str, part: str
) -> int:
    """Give back up to `amount` of a generation's charge, once per (generation, part).

    Paid credits go back first (they cost money). Never gives back more than was charged in
    total, and nothing when there was no charge. Returns the credits given back.
    """
    key = refund_key(generation_id, part)
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                if _existing(session, key) is not None:
                    return 0
                charged = _existing(session, charge_key(generation_id))
                if charged is None:
                    return 0
                # Read the account before the refunds so far: a refund that commits after this
                # read changes the version, and our update is then refused and retried.
                account = _load_account(session, account_id)
                back_free, back_paid = session.execute(
                    select(
                        func.coalesce(func.sum(LedgerEntry.delta_free), 0),
                        func.coalesce(func.sum(LedgerEntry.delta_paid), 0),
                    ).where(
                        LedgerEntry.kind == "refund", LedgerEntry.reference == generation_id
                    )
                ).one()
                left_paid = -charged.delta_paid - int(back_paid)
                left_free = -charged.delta_free - int(back_free)
                give_paid = min(amount, left_paid)
                give_free = min(amount - give_paid, left_free)
                if give_paid + give_free <= 0:
                    return 0
                _move(session, account, give_free, give_paid, "refund", key, generation_id)
                return give_free + give_paid
        except (_Conflict, IntegrityError, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not record the refund: too much contention")
