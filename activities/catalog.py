"""The catalog's photo check on the imaging queue: how many people an operator's digital-model
photo shows. It needs the engine's models (mediapipe), which only imaging workers load; the API
stays free of them and asks through workflows/catalog_check.py."""

from __future__ import annotations

from temporalio import activity

from activities.registry import Queue, Registration
from core.contracts.catalog_check import COUNT_PEOPLE, CountPeopleInput
from core.images import decode_rgb
from core.storage import Storage


class CatalogActivities:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @activity.defn(name=COUNT_PEOPLE)
    def count_people(self, inp: CountPeopleInput) -> int:
        # Imported here: the orchestration worker registers the workflow that calls this but
        # never loads the engine's models.
        from engine import count_people

        data = self.storage.get_bytes(inp.key, inp.max_bytes)
        return count_people(decode_rgb(data))


REGISTRATION = Registration(
    Queue.IMAGING, lambda deps: [CatalogActivities(deps.storage).count_people]
)
