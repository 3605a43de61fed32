"""The sweeper's activity: deal with every generation recorded but never known to be started.

A generation is recorded (with its credits reserved) before its workflow is started; if the API
dies in between, nothing else would ever start it, and its reservation would hold the credits
for good. Each one found is, by core.generations.sweep_action:
- recorded as started, when its workflow exists (the API died after starting it);
- started, which is safe whatever happened (workflow id = generation id, an existing run is used
  as it is); the workflow then charges it or, if its inputs are gone, fails it and releases the
  reservation, as for any generation;
- failed with its reservation released, when it has waited too long to be started now.
Re-renders with a placement adjustment (core/library/rerender.py) still queued after as long are
started too (free, nothing reserved: they are never given up).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from temporalio import activity
from temporalio.client import Client
from temporalio.service import RPCError, RPCStatusCode

from activities.registry import Queue, Registration
from core.db import SessionFactory
from core.generations.start import generation_facts, mark_started, start_generation
from core.generations.sweep import SweepAction, give_up, stuck_generations, sweep_action
from core.library.rerender import start_rerender, stuck_rerenders
from core.settings import Settings

log = logging.getLogger(__name__)

SWEEP_STUCK = "sweep_stuck_generations"


@dataclass
class SweepStuck:
    # Generations queued without a workflow for longer than this are dealt with (a submit
    # starts its workflow within a second; a minute leaves no doubt the API died meanwhile).
    older_than_seconds: float = 60.0
    # ... and failed (credits released) rather than started when older than this.
    give_up_after_seconds: float = 3600.0


@dataclass
class SweepReport:
    started: list[str]
    failed: list[str] = field(default_factory=list)
    already_running: list[str] = field(default_factory=list)
    # Re-render tasks started (or found running) by this sweep.
    rerenders: list[str] = field(default_factory=list)


async def workflow_exists(client: Client, workflow_id: str) -> bool:
    try:
        await client.get_workflow_handle(workflow_id).describe()
    except RPCError as error:
        if error.status == RPCStatusCode.NOT_FOUND:
            return False
        raise
    return True


class SweeperActivities:
    def __init__(self, sessions: SessionFactory, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    @activity.defn(name=SWEEP_STUCK)
    async def sweep_stuck(self, inp: SweepStuck) -> SweepReport:
        # Async (it talks to Temporal with the worker's own client); the database calls go to
        # a thread so the worker's event loop never waits on them.
        stuck = await asyncio.to_thread(
            stuck_generations, self.sessions, timedelta(seconds=inp.older_than_seconds)
        )
        client = activity.client()
        give_up_after = timedelta(seconds=inp.give_up_after_seconds)
        report = SweepReport(started=[])
        for generation in stuck:
            exists = await workflow_exists(client, generation.id)
            action = sweep_action(generation, exists, give_up_after)
            if action == SweepAction.RECORD:
                await asyncio.to_thread(mark_started, self.sessions, generation.id)
                report.already_running.append(generation.id)
            elif action == SweepAction.GIVE_UP:
                if await asyncio.to_thread(
                    give_up, self.sessions, generation.id, self.settings.app_url
                ):
                    log.warning("gave up generation %s, never started in %s",
                                generation.id, generation.age)
                    report.failed.append(generation.id)
            else:
                facts = await asyncio.to_thread(generation_facts, self.sessions, generation.id)
                await start_generation(client, self.settings, generation.id, facts)
                await asyncio.to_thread(mark_started, self.sessions, generation.id)
                log.warning("started generation %s, recorded %s ago but never started",
                            generation.id, generation.age)
                report.started.append(generation.id)
        for task_id, generation_id in await asyncio.to_thread(
            stuck_rerenders, self.sessions, timedelta(seconds=inp.older_than_seconds)
        ):
            await start_rerender(client, self.settings, task_id, generation_id)
            report.rerenders.append(task_id)
        return report


REGISTRATION = Registration(
    Queue.ORCHESTRATION, lambda deps: [SweeperActivities(deps.sessions, deps.settings).sweep_stuck]
)
