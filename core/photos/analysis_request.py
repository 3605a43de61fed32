"""Asking the imaging queue what an upload shows (workflows/photo_analysis.py), and waiting a
little for the answer: the API never loads the engine.

The wait is short (ANALYSIS_WAIT_SECONDS): a person uploading sees the answer beside the photo
at once, and when the answer is late (the imaging workers busy or down) the upload still works
without it; the workflow goes on and stores the analysis on the upload for the submit to read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import anyio
from temporalio.common import WorkflowIDConflictPolicy

from core.contracts.photo_analysis import (
    PHOTO_ANALYSIS_WORKFLOW,
    AnalysePhotoInput,
    photo_analysis_workflow_id,
)
from core.settings import Settings
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)

ANALYSIS_WAIT_SECONDS = 1.0
ANALYSIS_RUN_SECONDS = 300  # the workflow's own bound: its activity retries within it

# (upload id, key) -> the analysis as stored (core.photos.analysis.analysis_to_json), or None
# when it is not there within the wait.
PhotoAnalyser = Callable[[str, str], dict[str, Any] | None]


def photo_analyser(temporal: WorkflowStarter, settings: Settings) -> PhotoAnalyser:
    """Start (or find) the upload's analysis and wait ANALYSIS_WAIT_SECONDS for it. Called
    from a worker thread (the route runs in one)."""

    def analyse(upload_id: str, key: str) -> dict[str, Any] | None:
        async def run() -> dict[str, Any] | None:
            handle = await temporal.start_workflow(
                PHOTO_ANALYSIS_WORKFLOW,
                AnalysePhotoInput(key, settings.max_upload_bytes, settings.imaging_task_queue),
                id=photo_analysis_workflow_id(upload_id),
                task_queue=settings.task_queue,
                id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                execution_timeout=timedelta(seconds=ANALYSIS_RUN_SECONDS),
            )
            try:
                found: dict[str, Any] = await asyncio.wait_for(
                    handle.result(), ANALYSIS_WAIT_SECONDS)
            except TimeoutError:
                return None
            return found

        try:
            return anyio.from_thread.run(run)
        except Exception:
            # No analysis is no reason to refuse an upload: the engine still checks it.
            log.warning("could not analyse upload %s", upload_id, exc_info=True)
            return None

    return analyse
