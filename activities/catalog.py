"""The catalog's photo checks on the imaging queue: how many people an operator's digital-model
photo shows, and each digital model's skin tone. They need the engine's models (mediapipe),
which only imaging workers load; the API stays free of them and asks through
workflows/catalog_check.py."""

from __future__ import annotations

import logging

from sqlalchemy import select, update
from temporalio import activity

from activities.registry import Queue, Registration
from core.contracts.catalog_check import (
    COUNT_PEOPLE,
    MEASURE_MODEL_TONES,
    CountPeopleInput,
    MeasureTonesInput,
)
from core.db import SessionFactory
from core.engine import EngineError
from core.enums import CatalogKind
from core.models.catalog import CatalogItem
from core.photos.images import decode_rgb
from core.photos.tone_match import tone_json
from core.storage import Storage

log = logging.getLogger(__name__)

# Models measured per run (about half a second each): a catalog larger than this is finished
# by the next run, which the model list starts while any model is still unmeasured.
TONES_PER_RUN = 24


class CatalogActivities:
    def __init__(self, storage: Storage, sessions: SessionFactory | None = None) -> None:
        self.storage = storage
        self.sessions = sessions

    @activity.defn(name=COUNT_PEOPLE)
    def count_people(self, inp: CountPeopleInput) -> int:
        # Imported here: the orchestration worker registers the workflow that calls this but
        # never loads the engine's models.
        from engine import count_people

        data = self.storage.get_bytes(inp.key, inp.max_bytes)
        return count_people(decode_rgb(data))

    @activity.defn(name=MEASURE_MODEL_TONES)
    def measure_model_tones(self, inp: MeasureTonesInput) -> int:
        """Measure and store the skin tone of the digital models that have none yet, exactly as
        the engine measures the model it swaps to (digital_model, on the same decoded and
        capped photo); a model whose face cannot be found gets [] (measured, no tone: the
        rule then rules nothing out, and the engine refuses it as it always did). Returns how
        many were measured."""
        from engine import model_skin_tone

        assert self.sessions is not None
        with self.sessions() as session:
            rows = session.execute(
                select(CatalogItem.id, CatalogItem.key, CatalogItem.tone)
                .where(CatalogItem.kind == CatalogKind.MODEL)
                .order_by(CatalogItem.sort, CatalogItem.id)
            ).all()
        todo = [(row.id, row.key) for row in rows if not isinstance(row.tone, list)]
        measured = 0
        for item_id, key in todo[:TONES_PER_RUN]:
            activity.heartbeat(item_id)
            data = self.storage.get_bytes(key, inp.max_bytes)
            try:
                tone = model_skin_tone(decode_rgb(data))
                value = [] if tone is None else tone_json(tone)
            except EngineError:
                log.warning("no skin tone for catalog model %s", item_id, exc_info=True)
                value = []
            with self.sessions.begin() as session:
                session.execute(
                    update(CatalogItem).where(CatalogItem.id == item_id).values(tone=value)
                )
            measured += 1
        return measured


REGISTRATION = Registration(
    Queue.IMAGING,
    lambda deps: [
        (catalog := CatalogActivities(deps.storage, deps.sessions)).count_people,
        catalog.measure_model_tones,
    ],
)
