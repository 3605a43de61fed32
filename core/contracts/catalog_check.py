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


# The digital models' skin tones (core/photos/tone_match.py), measured once each on the imaging
# queue (workflows/catalog_check.py CatalogModelTonesWorkflow) and stored on the items; started by
# the model list when a model it is asked about has none yet (core/catalog/fit.py, tone_measurer).
CATALOG_TONES_WORKFLOW = "CatalogModelTones"
CATALOG_TONES_WORKFLOW_ID = "catalog-model-tones"  # one run at a time
MEASURE_MODEL_TONES = "measure_catalog_model_tones"


@dataclass
class MeasureTonesInput:
    max_bytes: int
    imaging_task_queue: str
