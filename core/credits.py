"""Credit movements: every change is a ledger entry plus the balance beside it, in one transaction.

Each movement has an idempotency key, so a retried activity or a repeated request never moves
credits twice.

Two-phase, as payment ledgers do: a submit reserves the generation's credits (a pending
CreditHold and accounts.held_credits, in the same transaction that records the generation), so
no more work is accepted than the balance covers; the workflow's charge posts the hold (the
ledger entry takes the credits, the reservation is released) and a generation that fails before
its charge voids it. Holds are reservations, not movements: the ledger never sees them.

The balance update is a compare-and-swap on the account's version; on a conflict (another
movement won the race) the whole transaction is retried. This is correct on SQLite and on
PostgreSQL without database-specific locking.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from core.db import SessionFactory
from core.enums import HoldStatus, LedgerKind
from core.errors import DomainError
from core.models.accounts import Account, CreditHold, LedgerEntry
from core.models.base import utcnow

_MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class Balance:
    free: int
    paid: int
    # Reserved by accepted generations not charged yet.
    held: int = 0

    @property
    def total(self) -> int:
        """What the ledger says the account has."""
        return self.free + self.paid

    @property
    def available(self) -> int:
        """What a new generation may spend: the total less what is reserved."""
        return self.total - self.held


class InsufficientCredits(DomainError):
    def __init__(self, needed: int, available: int) -> None:
        super().__init__(
            f"Not enough credits: this needs {needed} credit{'s' if needed != 1 else ''} "
            f"and you have {available}."
        )
        self.needed = needed
        self.available = available


class HoldReleased(InsufficientCredits):
    """The generation's reservation was released before its charge (the submit withdrew it
    when its start seemed to fail, or it was given up): nothing may be charged for it. An
    InsufficientCredits, so the charge step fails for good and charges nothing."""

    def __init__(self) -> None:
        DomainError.__init__(
            self, "This generation was withdrawn before it was charged; nothing was charged."
        )
        self.needed = self.available = 0


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
    return Balance(account.free_credits, account.paid_credits, account.held_credits)


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


def _swap(
    session: Session, account: Account, delta_free: int, delta_paid: int, delta_held: int
) -> None:
    """Change the account's balances if it still has the version the caller read, else raise
    _Conflict: a decision made on a stale balance can never be applied."""
    result = session.execute(
        update(Account)
        .where(Account.id == account.id, Account.version == account.version)
        .values(
            free_credits=account.free_credits + delta_free,
            paid_credits=account.paid_credits + delta_paid,
            held_credits=account.held_credits + delta_held,
            version=account.version + 1,
        )
        .execution_options(synchronize_session=False)
    )
    if result.rowcount != 1:  # type: ignore[attr-defined]
        raise _Conflict()


def _move(
    session: Session,
    account: Account,
    delta_free: int,
    delta_paid: int,
    kind: str,
    key: str,
    reference: str | None,
    delta_held: int = 0,
) -> None:
    """Apply one movement inside the caller's transaction, or raise _Conflict.

    `account` must be the read the caller based its decision on (see _swap).
    """
    _swap(session, account, delta_free, delta_paid, delta_held)
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


def granted(session: Session, key: str) -> bool:
    """Whether a movement with this idempotency key was made (e.g. a one-time grant)."""
    return _existing(session, key) is not None


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
    kind: str = LedgerKind.GRANT,
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

    Posts the generation's pending hold when it has one (the reserved credits are taken and
    the reservation released in one step); without one, only credits nobody reserved count.
    Raises InsufficientCredits (and changes nothing) when the balance does not cover it.
    """
    key = charge_key(generation_id)
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                # The account first: whatever commits after this read (another charge of this
                # generation, a release of its hold) changes its version, so our update is
                # refused and we decide again; whatever committed before, the reads below see.
                account = _load_account(session, account_id)
                # The hold before the charge entry: both change in one transaction, so a hold
                # seen settled always comes with its charge seen below.
                hold = _pending_hold(session, generation_id)
                done = _existing(session, key)
                if done is not None:
                    return ChargeResult(-done.delta_free, -done.delta_paid, True)
                if hold is None and session.get(CreditHold, generation_id) is not None:
                    # Its hold was released, not posted: the generation was withdrawn meanwhile
                    # (tests/integration/test_plan_attacks.py). Without this, the credits
                    # nobody held paid for it. (A generation from before holds has none.)
                    raise HoldReleased()
                released = hold.amount if hold is not None else 0
                available = account.free_credits + account.paid_credits - (
                    account.held_credits - released
                )
                if available < amount:
                    if _load_account(session, account_id).version != account.version:
                        raise _Conflict()  # decided on reads a commit came between: again
                    raise InsufficientCredits(amount, max(0, available))
                use_free = min(account.free_credits, amount)
                use_paid = amount - use_free
                _move(
                    session, account, -use_free, -use_paid, LedgerKind.CHARGE, key,
                    generation_id, delta_held=-released,
                )
                if hold is not None and not _settle(session, generation_id, HoldStatus.POSTED):
                    raise _Conflict()  # voided meanwhile: decide again on what is there now
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
                        LedgerEntry.kind == LedgerKind.REFUND,
                        LedgerEntry.reference == generation_id,
                    )
                ).one()
                left_paid = -charged.delta_paid - int(back_paid)
                left_free = -charged.delta_free - int(back_free)
                give_paid = min(amount, left_paid)
                give_free = min(amount - give_paid, left_free)
                if give_paid + give_free <= 0:
                    return 0
                _move(session, account, give_free, give_paid, LedgerKind.REFUND, key, generation_id)
                return give_free + give_paid
        except (_Conflict, IntegrityError, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not record the refund: too much contention")


# Holds (reservations made at submit)


def _pending_hold(session: Session, generation_id: str) -> CreditHold | None:
    return session.execute(
        select(CreditHold)
        .where(CreditHold.id == generation_id, CreditHold.status == HoldStatus.PENDING)
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()


def _settle(session: Session, generation_id: str, status: HoldStatus) -> bool:
    """Move a pending hold to `status`; False when it is no longer pending (another
    transaction settled it first: the database re-checks the condition on the locked row)."""
    result = session.execute(
        update(CreditHold)
        .where(CreditHold.id == generation_id, CreditHold.status == HoldStatus.PENDING)
        .values(status=status, settled_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def reserve(
    sessions: SessionFactory,
    account_id: str,
    generation_id: str,
    amount: int,
    record: Callable[[Session], None],
) -> None:
    """Reserve `amount` credits for a generation and, in the same transaction, `record` it
    (the generation and its tasks): either both happen or neither does.

    Raises InsufficientCredits when free + paid - held does not cover it, so exactly the
    affordable number of concurrent submits is accepted.
    """
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                account = _load_account(session, account_id)
                available = account.free_credits + account.paid_credits - account.held_credits
                if available < amount:
                    raise InsufficientCredits(amount, max(0, available))
                _swap(session, account, 0, 0, amount)
                session.add(CreditHold(id=generation_id, account_id=account_id, amount=amount))
                record(session)
                session.flush()
                return
        except (_Conflict, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not reserve the credits: too much contention")


def void_hold(
    sessions: SessionFactory,
    generation_id: str,
    then: Callable[[Session], None] | None = None,
) -> int:
    """Release a generation's pending reservation (it failed before its charge, or never
    started). Idempotent: a posted or voided hold is left alone. Returns the credits released.

    `then` (removing or failing the generation) runs in the same transaction, so a generation
    is never left behind without its reservation, nor a reservation without its generation.
    It runs also when there is nothing to release.
    """
    for attempt in range(_MAX_ATTEMPTS):
        try:
            with sessions.begin() as session:
                hold = _pending_hold(session, generation_id)
                released = 0
                # The hold is claimed by a conditional update before the balance changes: two
                # releases racing (or a release racing the charge) cannot both give it back.
                if hold is not None and _settle(session, generation_id, HoldStatus.VOIDED):
                    account = _load_account(session, hold.account_id)
                    _swap(session, account, 0, 0, -hold.amount)
                    released = hold.amount
                if then is not None:
                    then(session)
                return released
        except (_Conflict, OperationalError):
            _retrying(attempt)
    raise RuntimeError("could not release the reservation: too much contention")
