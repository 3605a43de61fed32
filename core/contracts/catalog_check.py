"""The catalog photo check (workflows/catalog_check.py): an operator's digital-model photo,
counted for people on the imaging queue."""

from __future__ import annotations

from dataclasses import dataclass

# An operator's digital-model photo, counted for people on the imaging queue
# (workflows/catalog_check.py), where the engine's models are loaded.
CATALOG_CHECK_WORKFLOW = "CatalogPhotoCheck"
COUNT_PEOPLE = "count_people_in_photo"


@dataclass
class CountPeopleInput:
    key: str  # the stored photo
    max_bytes: int
    imaging_task_queue: str
