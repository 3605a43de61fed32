"""The scheduled clean-up of uploads: abandoned ones (no task uses them) go with their
thumbnails once older than the retention; inputs of generations and fresh uploads stay."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from datetime import timedelta

from sqlalchemy import select, update
from temporalio.client import Client, ScheduleActionExecutionStartWorkflow, ScheduleHandle
from temporalio.worker import Replayer

from core.db import SessionFactory
from core.keys import thumbnail_key
from core.models.base import utcnow
from core.models.generations import UploadedFile
from core.settings import Settings
from core.storage import Storage
from ops.worker import (
    build_workers,
    ensure_mail_and_cleanup_schedules,
    mail_relay_schedule_id,
    upload_cleanup_schedule_id,
)
from tests.support.helpers import make_account, make_generation, upload
from workflows.cleanup import UploadCleanupWorkflow

JPEG = b"\xff\xd8\xff\xe0 not really decoded here"


def with_thumbnail(sessions: SessionFactory, storage: Storage, key: str) -> str:
    """As createThumbnail leaves it: the object beside the upload, recorded on its row."""
    thumb = thumbnail_key(key)
    storage.put_bytes(thumb, b"thumbnail", "image/jpeg")
    with sessions.begin() as session:
        session.execute(update(UploadedFile).where(UploadedFile.key == key)
                        .values(thumbnail_key=thumb))
    return thumb


def age(sessions: SessionFactory, key: str, hours: float) -> None:
    with sessions.begin() as session:
        session.execute(update(UploadedFile).where(UploadedFile.key == key)
                        .values(created_at=utcnow() - timedelta(hours=hours)))


def rows(sessions: SessionFactory) -> set[str]:
    with sessions() as session:
        return set(session.execute(select(UploadedFile.key)).scalars())


async def run_scheduled_once(temporal: Client, handle: ScheduleHandle) -> str:
    """Start the schedule's action now, as its hourly tick would; the run's workflow id."""
    await handle.trigger()
    for _ in range(100):
        actions = (await handle.describe()).info.recent_actions
        if actions:
            action = actions[-1].action
            assert isinstance(action, ScheduleActionExecutionStartWorkflow)
            await temporal.get_workflow_handle(action.workflow_id).result()
            return action.workflow_id
        await asyncio.sleep(0.1)
    raise AssertionError("the schedule started nothing")


async def test_old_unused_uploads_go_with_their_thumbnails_inputs_and_fresh_ones_stay(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    account = make_account(sessions)
    abandoned = upload(sessions, storage, account, JPEG, "abandoned.jpg")
    abandoned_thumb = with_thumbnail(sessions, storage, abandoned)
    used = upload(sessions, storage, account, JPEG, "used.jpg")
    used_thumb = with_thumbnail(sessions, storage, used)
    make_generation(sessions, account, "burstreplace", [used], background_id="white")
    fresh = upload(sessions, storage, account, JPEG, "fresh.jpg")
    # A URL was asked for and nothing was ever put there.
    never_put = upload(sessions, storage, account, JPEG, "never.jpg")
    storage.delete(never_put)
    assert storage.stat(never_put) is None
    for key in (abandoned, used, never_put):
        age(sessions, key, hours=settings.upload_retention_hours + 1)
    age(sessions, fresh, hours=settings.upload_retention_hours - 1)

    async with AsyncExitStack() as stack:
        for worker in build_workers(temporal, settings, None, ("orchestration",)):
            await stack.enter_async_context(worker)
        await ensure_mail_and_cleanup_schedules(temporal, settings)
        cleanup = temporal.get_schedule_handle(upload_cleanup_schedule_id(settings))
        try:
            spec = (await cleanup.describe()).schedule.spec
            assert [i.every for i in spec.intervals] == [timedelta(hours=1)]
            run_id = await run_scheduled_once(temporal, cleanup)
        finally:
            await cleanup.delete()
            await temporal.get_schedule_handle(mail_relay_schedule_id(settings)).delete()

    assert storage.stat(abandoned) is None and storage.stat(abandoned_thumb) is None
    assert rows(sessions) == {used, fresh}
    for key in (used, used_thumb, fresh):
        assert storage.stat(key) is not None, key
    # Its recorded history replays with the code as it is now.
    history = await temporal.get_workflow_handle(run_id).fetch_history()
    await Replayer(workflows=[UploadCleanupWorkflow]).replay_workflow(history)
