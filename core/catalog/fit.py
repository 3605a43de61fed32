"""Which digital models a photo can be swapped to, said before anyone pays (issue 33 item 9).

A model swap refuses a photo for reasons of its own (two people, a back view: its analysis,
core/photos/analysis.py) and for one that depends on the model: a skin tone too far from the
photo's for an even result (core/photos/tone_match.py, the rule the engine's gate applies too). The
model list given uploads (GET /api/v1/models?upload=...) and the submit (core/generations/
submit.py) both ask `swap_refusal`, so what the list offers the submit accepts.

A model's tone is measured once, on the imaging queue (workflows/catalog_check.py), the first
time the list is asked about a model that has none: until then its fit is not known (null),
and the list says so rather than guess.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta

import anyio
from sqlalchemy import or_, select
from sqlalchemy.orm import Session
from temporalio.common import WorkflowIDConflictPolicy

from core.catalog.lookup import CatalogPage, offered_page, offered_query
from core.contracts.catalog_check import (
    CATALOG_TONES_WORKFLOW,
    CATALOG_TONES_WORKFLOW_ID,
    MeasureTonesInput,
)
from core.db import SessionFactory
from core.enums import CatalogKind
from core.errors import InvalidInput, NotFound
from core.models.catalog import CatalogItem
from core.models.generations import UploadedFile
from core.photos.analysis import BODY_SWAP, PhotoAnalysis, analysis_from_json
from core.photos.analysis_request import PhotoAnalyser
from core.photos.tone_match import stored_tone, tone_refusal
from core.settings import Settings
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)

MAX_PHOTOS = 20  # as many as one generation takes
TONES_RUN_SECONDS = 300
UPLOAD_NOT_FOUND = "upload: {ref} is not one of your uploads."

# Starts the measuring of the models' tones (or finds it running); never raises.
ToneMeasurer = Callable[[], None]


def swap_refusal(analysis: PhotoAnalysis, model_tone: object) -> str | None:
    """Why the photo cannot be swapped to the model whose stored tone is `model_tone`, or None:
    the photo's own refusal first, then the skin tone rule."""
    return analysis.refusal(BODY_SWAP) or tone_refusal(analysis.tone, stored_tone(model_tone))


@dataclass(frozen=True)
class Photo:
    """One of the caller's uploads, as the fit needs it (analysis None: not analysed yet)."""

    id: str
    analysis: PhotoAnalysis | None
    key: str = ""


@dataclass(frozen=True)
class ModelFit:
    """Whether a model can be used with every photo: True, False with the first photo's reason
    and the ids of the photos it cannot be used with, or None while that is not known (a photo
    not analysed yet, or the model's tone not measured yet)."""

    compatible: bool | None
    reason: str | None = None
    unfit: tuple[str, ...] = ()


def model_fit(photos: Sequence[Photo], model_tone: object) -> ModelFit:
    measured = isinstance(model_tone, list)
    unfit: list[str] = []
    reasons: list[str] = []
    unknown = False
    for photo in photos:
        if photo.analysis is None:
            unknown = True
            continue
        refusal = swap_refusal(photo.analysis, model_tone)
        if refusal:
            unfit.append(photo.id)
            reasons.append(refusal)
        elif photo.analysis.tone is not None and not measured:
            unknown = True
    if unfit:
        return ModelFit(False, reasons[0], tuple(unfit))
    return ModelFit(None if unknown else True)


@dataclass(frozen=True)
class FittedPage:
    page: CatalogPage
    fits: dict[str, ModelFit]  # by model id; empty when no photo was given


class ModelFits:
    def __init__(
        self, sessions: SessionFactory, measure: ToneMeasurer, analyse: PhotoAnalyser
    ) -> None:
        self.sessions = sessions
        self.measure = measure
        self.analyse = analyse

    def offered(
        self, account_id: str, refs: Sequence[str], page: int, page_size: int
    ) -> FittedPage:
        """A page of the offered digital models, each with its fit to the caller's uploads
        `refs` (ids or keys); a model whose tone is not measured yet starts the measuring."""
        if len(refs) > MAX_PHOTOS:
            raise InvalidInput(f"upload: at most {MAX_PHOTOS} uploads at once.")
        with self.sessions() as session:
            photos = [self._photo(session, account_id, ref) for ref in refs]
            found = offered_page(session, CatalogKind.MODEL, page, page_size)
        # An upload not analysed yet (one sent to /api/v1/uploads, which makes no thumbnail
        # and asks nothing) is asked now, a second at most; later asks find it stored.
        photos = [self._analysed(photo) for photo in photos]
        if not photos:
            return FittedPage(found, {})
        if any(not isinstance(item.tone, list) for item in found.items):
            self.measure()
        return FittedPage(found, {item.id: model_fit(photos, item.tone) for item in found.items})

    def measure_unmeasured(self) -> None:
        """Start measuring the offered models' skin tones when any has none yet (one cheap
        query once they all have one)."""
        with self.sessions() as session:
            tones = session.execute(
                offered_query(CatalogKind.MODEL).with_only_columns(CatalogItem.tone)
            ).scalars()
            missing = any(not isinstance(tone, list) for tone in tones)
        if missing:
            self.measure()

    @staticmethod
    def _photo(session: Session, account_id: str, ref: str) -> Photo:
        row = session.execute(
            select(UploadedFile.id, UploadedFile.key, UploadedFile.analysis).where(
                UploadedFile.account_id == account_id,
                or_(UploadedFile.id == ref, UploadedFile.key == ref),
            )
        ).one_or_none()
        if row is None:
            raise NotFound(UPLOAD_NOT_FOUND.format(ref=ref))
        return Photo(row.id, analysis_from_json(row.analysis) if row.analysis else None, row.key)

    def _analysed(self, photo: Photo) -> Photo:
        if photo.analysis is not None:
            return photo
        found = self.analyse(photo.id, photo.key)
        return Photo(photo.id, analysis_from_json(found) if found else None, photo.key)


def tone_measurer(temporal: WorkflowStarter, settings: Settings) -> ToneMeasurer:
    """Start the CatalogModelTones workflow, or find the one running; called from a worker
    thread (the route runs in one). A failure is logged: the fit stays unknown meanwhile."""

    def measure() -> None:
        async def run() -> None:
            await temporal.start_workflow(
                CATALOG_TONES_WORKFLOW,
                MeasureTonesInput(settings.max_upload_bytes, settings.imaging_task_queue),
                id=CATALOG_TONES_WORKFLOW_ID,
                task_queue=settings.task_queue,
                id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                execution_timeout=timedelta(seconds=TONES_RUN_SECONDS),
            )

        try:
            anyio.from_thread.run(run)
        except Exception:
            log.warning("could not start measuring the models' skin tones", exc_info=True)

    return measure
