"""The upload clean-up's activity: delete uploads no generation uses, once they are old enough.

An upload is abandoned when the browser asked for a URL and never submitted (or the submit was
refused): its object, its thumbnail and its row stay forever otherwise. An upload that is the
input of any task is never touched, whatever its age: the generation's page shows it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import Exists, delete, exists, select
from temporalio import activity

from activities.registry import Queue, Registration
from core.db import SessionFactory
from core.keys import thumbnail_key
from core.models.base import utcnow
from core.models.generations import GenerationImage, UploadedFile
from core.storage import Storage

log = logging.getLogger(__name__)

CLEAN_UP_UPLOADS = "clean_up_uploads"

# Rows read and deleted per round; the activity heartbeats between rounds.
BATCH = 200


@dataclass
class CleanUpUploads:
    """The clean-up's input (workflow and activity): uploads unused for longer go."""

    retention_hours: float


@dataclass
class CleanupReport:
    deleted: int


def _used_by_a_task() -> Exists:
    return exists().where(GenerationImage.input_key == UploadedFile.key)


class CleanupActivities:
    def __init__(self, sessions: SessionFactory, storage: Storage) -> None:
        self.sessions = sessions
        self.storage = storage

    @activity.defn(name=CLEAN_UP_UPLOADS)
    def clean_up_uploads(self, inp: CleanUpUploads) -> CleanupReport:
        """Delete every unused upload older than the retention, objects first, then the row.

        In that order, a failure half-way leaves the row, so the next run finds it and repeats
        the (idempotent) deletes; the other way round an object could be left with no row
        pointing at it."""
        cutoff = utcnow() - timedelta(hours=inp.retention_hours)
        deleted = 0
        while True:
            with self.sessions() as session:
                batch = session.execute(
                    select(UploadedFile.id, UploadedFile.key, UploadedFile.thumbnail_key)
                    .where(UploadedFile.created_at < cutoff, ~_used_by_a_task())
                    .order_by(UploadedFile.created_at)
                    .limit(BATCH)
                ).all()
            if not batch:
                break
            for file_id, key, recorded_thumbnail in batch:
                if self._delete_if_unused(file_id, key, recorded_thumbnail):
                    deleted += 1
            activity.heartbeat(deleted)
        if deleted:
            log.info("deleted %d unused uploads older than %s", deleted, cutoff.isoformat())
        return CleanupReport(deleted=deleted)

    def _delete_if_unused(self, file_id: str, key: str, recorded_thumbnail: str | None) -> bool:
        # Looked at again just before: the batch was read a moment ago, and a submit may have
        # taken the upload since (one left a day in an open tab). A submit in the few
        # milliseconds that remain finds its input gone and fails at verification, refunded.
        with self.sessions() as session:
            used = session.execute(
                select(UploadedFile.id).where(UploadedFile.id == file_id, _used_by_a_task())
            ).first()
        if used is not None:
            return False
        # The thumbnail's key is derived from the upload's; the row records it only when the
        # browser asked for one, while the imaging step may have made one as well.
        for doomed in {key, thumbnail_key(key), recorded_thumbnail} - {None}:
            self.storage.delete(str(doomed))
        with self.sessions.begin() as session:
            session.execute(
                delete(UploadedFile)
                .where(UploadedFile.id == file_id, ~_used_by_a_task())
                .execution_options(synchronize_session=False)
            )
        return True


REGISTRATION = Registration(
    Queue.ORCHESTRATION,
    lambda deps: [CleanupActivities(deps.sessions, deps.storage).clean_up_uploads],
)
