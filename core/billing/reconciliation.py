"""Reconciliation: the money rules checked against what the database holds, hourly.

Four checks (the reconciliation workflow runs them on a Temporal schedule, see
workflows/reconciliation.py):
- balance: an account's free and paid credits are what its ledger entries add up to;
- held: its held credits are the sum of its pending holds (reservations not charged yet);
- charge: a finished generation's charge less its refunds is its delivered images times its
  price per image (what it cost at submit, over its images), so nobody paid for an image they
  did not get, nor got one unpaid;
- payment: a provider said an order was paid with another amount or currency than the order's
  (core/billing/orders.py keeps such an order pending), and the order is still not paid: money
  may have been taken for nothing credited.

Each query aggregates in the database (one pass per check), so the job stays cheap as the
tables grow. A mismatch is an error for a person to look at: the report lists each one, the
activity logs it at error level, and `mismatch_totals()` counts them by kind for the metrics.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from core.billing.events import PAID_AFTER_EXPIRY_OUTCOME, PAYMENT_MISMATCH_OUTCOME
from core.db import SessionFactory
from core.enums import GenerationStatus, HoldStatus, LedgerKind, OrderStatus
from core.models.accounts import Account, CreditHold, LedgerEntry
from core.models.billing import Order, PaymentEvent
from core.models.generations import Generation, GenerationImage

BALANCE = "balance"
HELD = "held"
CHARGE = "charge"
PAYMENT = "payment"
MISMATCH_KINDS = (BALANCE, HELD, CHARGE, PAYMENT)


@dataclass
class Mismatch:
    """One rule broken: `expected` is what the rule says, `found` what the database holds."""

    kind: str  # BALANCE | HELD | CHARGE | PAYMENT
    account_id: str
    expected: int
    found: int
    detail: str
    generation_id: str | None = None


@dataclass
class Reconcile:
    """The reconciliation's input: how many mismatches its result lists at most (all are
    logged and counted; a workflow result must stay small)."""

    max_listed: int = 200


@dataclass
class ReconciliationReport:
    accounts_checked: int = 0
    generations_checked: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    # All found, also those beyond the listed ones.
    mismatch_count: int = 0

    @property
    def clean(self) -> bool:
        return not self.mismatches


def _check_balances(session: Session, report: ReconciliationReport) -> None:
    ledger = (
        select(
            LedgerEntry.account_id.label("account_id"),
            func.sum(LedgerEntry.delta_free).label("free"),
            func.sum(LedgerEntry.delta_paid).label("paid"),
        )
        .group_by(LedgerEntry.account_id)
        .subquery()
    )
    holds = (
        select(CreditHold.account_id.label("account_id"), func.sum(CreditHold.amount).label("held"))
        .where(CreditHold.status == HoldStatus.PENDING)
        .group_by(CreditHold.account_id)
        .subquery()
    )
    rows = session.execute(
        select(
            Account.id,
            Account.free_credits,
            Account.paid_credits,
            Account.held_credits,
            func.coalesce(ledger.c.free, 0),
            func.coalesce(ledger.c.paid, 0),
            func.coalesce(holds.c.held, 0),
        )
        .outerjoin(ledger, ledger.c.account_id == Account.id)
        .outerjoin(holds, holds.c.account_id == Account.id)
        .order_by(Account.id)
    ).all()
    for account_id, free, paid, held, ledger_free, ledger_paid, pending in rows:
        report.accounts_checked += 1
        if (free, paid) != (int(ledger_free), int(ledger_paid)):
            report.mismatches.append(
                Mismatch(
                    BALANCE, account_id, int(ledger_free) + int(ledger_paid), free + paid,
                    f"balance free={free} paid={paid}, ledger free={int(ledger_free)} "
                    f"paid={int(ledger_paid)}",
                )  # fmt: skip
            )
        if held != int(pending):
            report.mismatches.append(
                Mismatch(
                    HELD, account_id, int(pending), held,
                    f"held_credits={held}, pending holds add up to {int(pending)}",
                )  # fmt: skip
            )


def _check_charges(session: Session, report: ReconciliationReport) -> None:
    """Finished generations: charged − refunded = delivered images × price per image."""
    moved = -(LedgerEntry.delta_free + LedgerEntry.delta_paid)
    money = (
        select(
            LedgerEntry.reference.label("generation_id"),
            func.sum(case((LedgerEntry.kind == LedgerKind.CHARGE, moved), else_=0)).label(
                "charged"
            ),
            func.sum(case((LedgerEntry.kind == LedgerKind.REFUND, -moved), else_=0)).label(
                "refunded"
            ),
        )
        .where(LedgerEntry.kind.in_((LedgerKind.CHARGE, LedgerKind.REFUND)))
        .group_by(LedgerEntry.reference)
        .subquery()
    )
    tasks = (
        select(
            GenerationImage.generation_id.label("generation_id"),
            func.count().label("images"),
            func.sum(
                case((GenerationImage.status == GenerationStatus.COMPLETED, 1), else_=0)
            ).label("delivered"),
        )
        # Re-renders with a placement adjustment are free (core/library/rerender.py): not priced.
        .where(GenerationImage.source_task_id.is_(None))
        .group_by(GenerationImage.generation_id)
        .subquery()
    )
    rows = session.execute(
        select(
            Generation.id,
            Generation.account_id,
            Generation.credits,
            func.coalesce(tasks.c.images, 0),
            func.coalesce(tasks.c.delivered, 0),
            func.coalesce(money.c.charged, 0),
            func.coalesce(money.c.refunded, 0),
        )
        .outerjoin(tasks, tasks.c.generation_id == Generation.id)
        .outerjoin(money, money.c.generation_id == Generation.id)
        # Only finished ones: a running generation is charged before its images exist.
        .where(Generation.status.in_((GenerationStatus.COMPLETED, GenerationStatus.FAILED)))
        .order_by(Generation.id)
    ).all()
    for generation_id, account_id, cost, images, delivered, charged, refunded in rows:
        report.generations_checked += 1
        price = cost // images if images else 0
        expected = int(delivered) * price
        paid = int(charged) - int(refunded)
        if paid != expected:
            report.mismatches.append(
                Mismatch(
                    CHARGE, account_id, expected, paid,
                    f"charged {int(charged)} - refunded {int(refunded)} = {paid}, but "
                    f"{int(delivered)} of {int(images)} images delivered at {price} each",
                    generation_id=generation_id,
                )  # fmt: skip
            )


def _check_payments(session: Session, report: ReconciliationReport) -> None:
    """Paid events that did not match their order, whose order is still unpaid; paid events
    for an order that had expired (not fulfilled: a person refunds them)."""
    _check_paid_after_expiry(session, report)
    rows = session.execute(
        select(
            PaymentEvent.event_id, PaymentEvent.amount, PaymentEvent.currency,
            Order.id, Order.account_id, Order.amount, Order.currency,
        )
        .join(Order, Order.id == PaymentEvent.order_id)
        .where(
            PaymentEvent.outcome == PAYMENT_MISMATCH_OUTCOME,
            Order.status != OrderStatus.PAID,
        )
        .order_by(PaymentEvent.id)
    ).all()  # fmt: skip
    for event_id, amount, currency, order_id, account_id, expected, expected_currency in rows:
        report.mismatches.append(
            Mismatch(
                PAYMENT, account_id, expected, amount if amount is not None else -1,
                f"event {event_id} says order {order_id} was paid {amount} {currency}; "
                f"the order is {expected} {expected_currency} and still unpaid",
            )  # fmt: skip
        )


def _check_paid_after_expiry(session: Session, report: ReconciliationReport) -> None:
    rows = session.execute(
        select(PaymentEvent.event_id, PaymentEvent.amount, PaymentEvent.currency, Order.id,
               Order.account_id, Order.amount)
        .join(Order, Order.id == PaymentEvent.order_id)
        .where(
            PaymentEvent.outcome == PAID_AFTER_EXPIRY_OUTCOME,
            Order.status == OrderStatus.EXPIRED,
        )
        .order_by(PaymentEvent.id)
    ).all()  # fmt: skip
    for event_id, amount, currency, order_id, account_id, expected in rows:
        report.mismatches.append(
            Mismatch(
                PAYMENT, account_id, 0, amount if amount is not None else expected,
                f"event {event_id} says order {order_id} was paid {amount} {currency} after "
                "it expired: not credited; refund the payment",
            )  # fmt: skip
        )


def reconcile(sessions: SessionFactory) -> ReconciliationReport:
    """Run every check. Each check is one statement, so it sees one state of the database:
    a movement commits its ledger entry, its balance and its hold together, and a generation
    is finished only after its last refund."""
    report = ReconciliationReport()
    with sessions() as session:
        _check_balances(session, report)
        _check_charges(session, report)
        _check_payments(session, report)
    report.mismatch_count = len(report.mismatches)
    return report


# For the metrics: mismatches found since the process started, by kind, and the last run's.

_lock = threading.Lock()
_totals: Counter[str] = Counter()
_last: dict[str, int] = dict.fromkeys(MISMATCH_KINDS, 0)
_runs = 0


def record(report: ReconciliationReport) -> None:
    """Count a run's mismatches (the activity calls it after each run)."""
    global _runs
    found = Counter(m.kind for m in report.mismatches)
    with _lock:
        _totals.update(found)
        _runs += 1
        for kind in MISMATCH_KINDS:
            _last[kind] = found.get(kind, 0)


def mismatch_totals() -> dict[str, int]:
    """Mismatches found by this process's runs so far, by kind (a Prometheus counter)."""
    with _lock:
        return {kind: _totals.get(kind, 0) for kind in MISMATCH_KINDS}


def last_run_mismatches() -> dict[str, int]:
    """The last run's mismatches by kind (a Prometheus gauge: non-zero means look now)."""
    with _lock:
        return dict(_last)


def runs() -> int:
    """How many runs this process has recorded."""
    with _lock:
        return _runs
