"""The reconciliation's activity: run the checks of core/billing/reconciliation.py and report.

Each mismatch is logged at error level with its account (and generation), so it reaches the
error reporting, and counted for the metrics (core.billing.reconciliation.mismatch_totals, and the
`metamodel_reconciliation_mismatches` counter of the worker's Temporal metric meter).
"""

from __future__ import annotations

import logging

from temporalio import activity

from activities.registry import Queue, Registration
from core.billing import reconciliation
from core.billing.reconciliation import Reconcile, ReconciliationReport
from core.db import SessionFactory

log = logging.getLogger(__name__)

RECONCILE = "reconcile_credits"


class ReconciliationActivities:
    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions

    @activity.defn(name=RECONCILE)
    def reconcile(self, inp: Reconcile) -> ReconciliationReport:
        report = reconciliation.reconcile(self.sessions)
        reconciliation.record(report)
        for m in report.mismatches:
            log.error(
                "reconciliation mismatch (%s): account %s%s: %s",
                m.kind, m.account_id,
                f" generation {m.generation_id}" if m.generation_id else "", m.detail,
                extra={"account_id": m.account_id, "service_id": m.generation_id,
                       "mismatch": m.kind},
            )  # fmt: skip
        # Every kind, zero included, so each series exists from the first run on.
        counter = activity.metric_meter().create_counter(
            "metamodel_reconciliation_mismatches",
            "Mismatches found by the reconciliation, by kind",
        )
        for kind in reconciliation.MISMATCH_KINDS:
            counter.add(sum(1 for m in report.mismatches if m.kind == kind), {"kind": kind})
        log.info(
            "reconciliation: %d accounts, %d generations checked, %d mismatches",
            report.accounts_checked, report.generations_checked, report.mismatch_count,
        )  # fmt: skip
        del report.mismatches[inp.max_listed:]
        return report


REGISTRATION = Registration(
    Queue.ORCHESTRATION, lambda deps: [ReconciliationActivities(deps.sessions).reconcile]
)
