"""Starting a generation's workflow: by its submit (with the plan it made), by a repeated
submit or by the sweeper (with the id alone); what the Temporal UI shows of it; and recording
that it started."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update
from temporalio.client import Client
from temporalio.common import WorkflowIDConflictPolicy

from core.contracts.generation import (
    GENERATION_WORKFLOW,
    GenerationOptions,
    GenerationPlan,
    StartGeneration,
)
from core.db import SessionFactory
from core.models.accounts import Account
from core.models.base import utcnow
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from core.workflow_search import (
    GenerationFacts,
    generation_details,
    generation_search_attributes,
    generation_summary,
)
from core.workflow_starter import WorkflowStarter


def facts_of(plan: GenerationPlan, account_kind: str, distributor_id: str) -> GenerationFacts:
    """What the Temporal UI shows of a generation just planned (generation_facts, unread)."""
    return GenerationFacts(
        account_id=plan.account_id,
        account_kind=account_kind,
        service=plan.service,
        image_count=len(plan.tasks),
        credits=plan.cost,
        distributor_id=distributor_id,
    )


def generation_facts(sessions: SessionFactory, generation_id: str) -> GenerationFacts | None:
    """What the Temporal UI shows of a generation (its search attributes and summary), from
    its row; None when it is not recorded."""
    with sessions() as session:
        row = session.execute(
            select(Generation, Account.kind)
            .join(Account, Account.id == Generation.account_id)
            .where(Generation.id == generation_id)
        ).one_or_none()
        if row is None:
            return None
        generation, kind = row
        count = session.scalar(
            select(func.count()).select_from(GenerationImage)
            .where(GenerationImage.generation_id == generation_id)
        )
        return GenerationFacts(
            account_id=generation.account_id,
            account_kind=kind,
            service=generation.service,
            image_count=int(count or 0),
            credits=generation.credits,
            distributor_id=generation.distributor_id,
        )


async def start_generation(
    temporal: WorkflowStarter | Client,
    settings: Settings,
    generation_id: str,
    facts: GenerationFacts | None = None,
    plan: GenerationPlan | None = None,
) -> None:
    """Start the generation's workflow; starting it again is harmless (workflow id =
    generation id, and an existing run is used as it is). With its `facts` (generation_facts),
    the workflow starts with its search attributes and a summary for the Temporal UI; with its
    `plan` (the submit's), it runs that plan rather than making one from the recorded rows."""
    shown: dict[str, Any] = {}
    if facts is not None:
        shown = {
            "search_attributes": generation_search_attributes(facts),
            "static_summary": generation_summary(facts),
            "static_details": generation_details(facts),
        }
    await temporal.start_workflow(
        GENERATION_WORKFLOW,
        StartGeneration(
            generation_id=generation_id,
            options=GenerationOptions(
                imaging_task_queue=settings.imaging_task_queue,
                imaging_timeout_seconds=settings.engine_timeout_seconds,
                heartbeat_timeout_seconds=settings.imaging_heartbeat_timeout_seconds,
            ),
            plan=plan,
        ),
        id=generation_id,
        task_queue=settings.task_queue,
        id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
        **shown,
    )


def mark_started(sessions: SessionFactory, generation_id: str) -> None:
    with sessions.begin() as session:
        session.execute(
            update(Generation)
            .where(Generation.id == generation_id, Generation.workflow_started_at.is_(None))
            .values(workflow_started_at=utcnow())
        )
