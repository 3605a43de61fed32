"""What the ledger says about some generations, and the reconciliation, as one JSON line.

`python -m ops.ledger_audit GENERATION_ID...` (settings from the environment, as every process
reads them): for each generation its status, its charge and refund entries, and the credits
they move; then `core.billing.reconciliation.reconcile` over the whole database. The deploy check
(ops/deploy/check.py) runs it inside the app container, against the deployment's own
database, to show that each generation was charged exactly once and nothing is out of balance.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from sqlalchemy import select

from core.billing.reconciliation import reconcile
from core.credits import charge_key
from core.db import SessionFactory, make_database, make_session_factory
from core.enums import LedgerKind
from core.models.accounts import LedgerEntry
from core.models.generations import Generation
from core.settings import get_settings


def generation_ledger(sessions: SessionFactory, generation_id: str) -> dict[str, Any]:
    """The generation's status and the ledger entries that point at it."""
    with sessions() as session:
        generation = session.get(Generation, generation_id)
        entries = session.execute(
            select(LedgerEntry).where(
                (LedgerEntry.reference == generation_id)
                | (LedgerEntry.idempotency_key == charge_key(generation_id))
            )
        ).scalars().all()
    charges = [e for e in entries if e.kind == LedgerKind.CHARGE]
    refunds = [e for e in entries if e.kind == LedgerKind.REFUND]
    return {
        "status": None if generation is None else str(generation.status),
        "charges": len(charges),
        "charged_credits": -sum(e.delta_free + e.delta_paid for e in charges),
        "refunds": len(refunds),
        "refunded_credits": sum(e.delta_free + e.delta_paid for e in refunds),
    }


def audit(sessions: SessionFactory, generation_ids: list[str]) -> dict[str, Any]:
    report = reconcile(sessions)
    return {
        "generations": {gid: generation_ledger(sessions, gid) for gid in generation_ids},
        "reconciliation": {
            "clean": report.clean,
            "accounts_checked": report.accounts_checked,
            "generations_checked": report.generations_checked,
            "mismatch_count": report.mismatch_count,
            "mismatches": [vars(m) for m in report.mismatches[:20]],
        },
    }


def main(argv: list[str] | None = None) -> int:
    generation_ids = list(sys.argv[1:] if argv is None else argv)
    database = make_database(get_settings().resolved_database_url)
    try:
        print(json.dumps(audit(make_session_factory(database), generation_ids), default=str))
    finally:
        database.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
