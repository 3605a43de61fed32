"""How each activities module offers its activities to a worker: the task queue they run on and
how they are built from the process's shared dependencies.

Each module under activities/ that has activities ends with one `REGISTRATION`; each module
under workflows/ with workflows names them in `WORKFLOWS`. The worker's composition root
(ops/worker.py) finds both by walking the two packages, so a new activity or workflow is
registered where it is written, not in a list elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core.contracts.subscription import ChargeOutcome
from core.db import SessionFactory
from core.engine import ImageEngine
from core.provenance.setup import Provenance
from core.settings import Settings
from core.storage import Storage

# Charges a period to a card on file: (card, amount in minor units, currency) → outcome. The
# worker's composition root gives the configured provider's (payments.local for `local`).
CardCharger = Callable[[str | None, int, str], ChargeOutcome]


class Queue(StrEnum):
    """The worker's two task queues (their names in the settings: `task_queue`,
    `imaging_task_queue`): quick steps beside the workflows, and the engine's work."""

    ORCHESTRATION = "orchestration"
    IMAGING = "imaging"


@dataclass(frozen=True)
class WorkerDeps:
    """What the composition root builds once per process and every activity class may use."""

    sessions: SessionFactory
    storage: Storage
    settings: Settings
    # Only in a process that serves the imaging queue.
    engine: ImageEngine | None = None
    card_charger: CardCharger | None = None
    # Content Credentials' chain, signer and reader: in a process that serves the imaging queue
    # (built at start, so a chain that cannot sign stops the worker before it takes work).
    provenance: Provenance | None = None

    def require_engine(self) -> ImageEngine:
        if self.engine is None:
            raise ValueError("the imaging queue needs an engine")
        return self.engine


@dataclass(frozen=True)
class Registration:
    """A module's activities: the queue they run on, and the bound activity methods built from
    the process's dependencies."""

    queue: Queue
    build: Callable[[WorkerDeps], Sequence[Callable[..., Any]]]
