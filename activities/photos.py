"""Every upload's analysis on the imaging queue (engine/photo_analysis.py needs the engine's
models, which only imaging workers load). The result is stored on the upload, so it is there
for submit even when the API stopped waiting for it, and returned to whoever waits."""

from __future__ import annotations

from typing import Any

from sqlalchemy import update
from temporalio import activity

from activities.registry import Queue, Registration
from core.contracts.photo_analysis import ANALYSE_PHOTO, AnalysePhotoInput
from core.db import SessionFactory
from core.models.generations import UploadedFile
from core.photos.analysis import analysis_to_json
from core.photos.images import decode_rgb
from core.storage import Storage


class PhotoActivities:
    def __init__(self, sessions: SessionFactory, storage: Storage) -> None:
        self.sessions = sessions
        self.storage = storage

    @activity.defn(name=ANALYSE_PHOTO)
    def analyse_photo(self, inp: AnalysePhotoInput) -> dict[str, Any]:
        # Imported here: the orchestration worker registers the workflow that calls this but
        # never loads the engine's models.
        from engine import analyse_photo

        data = self.storage.get_bytes(inp.key, inp.max_bytes)
        found = analysis_to_json(analyse_photo(decode_rgb(data)))
        with self.sessions.begin() as session:
            session.execute(
                update(UploadedFile).where(UploadedFile.key == inp.key).values(analysis=found)
            )
        return found


REGISTRATION = Registration(
    Queue.IMAGING, lambda deps: [PhotoActivities(deps.sessions, deps.storage).analyse_photo]
)
