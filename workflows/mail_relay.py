"""The mail relay: one short run per tick of its schedule, sending what is due in the outbox.

Retries live in the outbox rows (attempts, next_attempt_at), not in Temporal: a run that fails
is simply followed by the next one a few seconds later.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.mail import MailActivities, RelayMail
    from core.mail import CLAIM_LEASE, RelayReport

MAIL_RELAY_WORKFLOW = "MailRelay"


# Not sandboxed, like the generation workflow: it only calls one activity.
@workflow.defn(name=MAIL_RELAY_WORKFLOW, sandboxed=False)
class MailRelayWorkflow:
    @workflow.run
    async def run(self, inp: RelayMail) -> RelayReport:
        return await workflow.execute_activity_method(
            MailActivities.relay_mail,
            inp,
            # The budget, then at most one send still under way.
            start_to_close_timeout=timedelta(seconds=inp.budget_seconds) + CLAIM_LEASE,
            # One send can take a while; a worker that died is noticed after this.
            heartbeat_timeout=CLAIM_LEASE,
            retry_policy=RetryPolicy(maximum_attempts=1),
        )


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (MailRelayWorkflow,)
