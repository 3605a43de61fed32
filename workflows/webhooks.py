"""Webhook delivery as workflows (issue 23).

The relay runs on a schedule (every `webhook_relay_interval_seconds`): it claims the deliveries
queued since its last run and starts one WebhookDelivery workflow for each, abandoned by the relay
so it lives on after the relay ends. That workflow owns its delivery for up to the retry window
(3 days): Temporal retries the attempt with exponential backoff, each attempt limited to the
timeout, and survives worker restarts; when the window is spent it gives the delivery up (and
the endpoint, after a whole window of failures).
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, WorkflowAlreadyStartedError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.webhooks import DeliverWebhook, WebhookActivities, WebhookRetries

WEBHOOK_RELAY_WORKFLOW = "WebhookRelay"
WEBHOOK_DELIVERY_WORKFLOW = "WebhookDelivery"
QUICK = timedelta(seconds=30)


def delivery_workflow_id(delivery_id: str, dispatch: int) -> str:
    return f"webhook-{delivery_id}-{dispatch}"


# Not sandboxed, like the other workflows here: they only call activities.
@workflow.defn(name=WEBHOOK_DELIVERY_WORKFLOW, sandboxed=False)
class WebhookDeliveryWorkflow:
    @workflow.run
    async def run(self, inp: DeliverWebhook) -> str:
        retries = inp.retries
        try:
            await workflow.execute_activity_method(
                WebhookActivities.deliver,
                inp,
                # The HTTP timeout, plus the database around it.
                start_to_close_timeout=timedelta(seconds=retries.timeout_seconds + 20),
                schedule_to_close_timeout=timedelta(seconds=retries.window_seconds),
                retry_policy=RetryPolicy(
                    initial_interval=timedelta(seconds=retries.initial_seconds),
                    backoff_coefficient=2.0,
                    maximum_interval=timedelta(seconds=retries.max_interval_seconds),
                ),
            )
            return "delivered"
        except ActivityError:
            await workflow.execute_activity_method(
                WebhookActivities.give_up, inp, start_to_close_timeout=QUICK,
                retry_policy=RetryPolicy(maximum_interval=timedelta(minutes=1)))
            return "given up"


@workflow.defn(name=WEBHOOK_RELAY_WORKFLOW, sandboxed=False)
class WebhookRelayWorkflow:
    @workflow.run
    async def run(self, retries: WebhookRetries) -> int:
        claimed = await workflow.execute_activity_method(
            WebhookActivities.claim, start_to_close_timeout=QUICK,
            retry_policy=RetryPolicy(maximum_attempts=3))
        for ref in claimed:
            # Already started: by an earlier run of this relay.
            with contextlib.suppress(WorkflowAlreadyStartedError):
                await workflow.start_child_workflow(
                    WebhookDeliveryWorkflow.run,
                    DeliverWebhook(ref, retries),
                    id=delivery_workflow_id(ref.delivery_id, ref.dispatch),
                    parent_close_policy=ParentClosePolicy.ABANDON,
                )
        return len(claimed)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (WebhookRelayWorkflow, WebhookDeliveryWorkflow)
