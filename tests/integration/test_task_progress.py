"""The task state writes of the imaging worker (core/generations/tasks.py), on SQLite and
PostgreSQL: progress never goes backwards, a finished task never changes, and a generation leaves
"queued" once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.generations import tasks
from core.models.accounts import Account
from core.models.generations import Generation, GenerationImage


def make_task(sessions: SessionFactory) -> tuple[str, str]:
    with sessions() as session:
        account = Account(kind="guest", fingerprint="progress-test", distributor_id="d")
        session.add(account)
        session.flush()
        generation = Generation(
            account_id=account.id, service=GenerationKind.BURST_REPLACE, status="queued",
            background_id="white", credits=1, distributor_id="d",
        )
        session.add(generation)
        session.flush()
        task = GenerationImage(generation_id=generation.id, position=0, input_key="uploads/x.jpg")
        session.add(task)
        session.commit()
        return generation.id, task.id


def state(sessions: SessionFactory, generation_id: str, task_id: str) -> tuple[str, int, str, str]:
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        generation = session.get(Generation, generation_id)
        assert task is not None and generation is not None
        return task.status, task.progress, task.stage, generation.status


def test_progress_moves_forward_only_and_a_finished_task_stays(database: SessionFactory) -> None:
    generation_id, task_id = make_task(database)
    tasks.set_task_progress(database, task_id, 10, "starting", generation_id=generation_id)
    assert state(database, generation_id, task_id) == (
        GenerationStatus.RUNNING, 10, "starting", GenerationStatus.RUNNING
    )
    tasks.set_task_progress(database, task_id, 60, "placing")
    # A retried attempt starts its stages again: the stage shows, the bar does not go back.
    tasks.set_task_progress(database, task_id, 10, "starting", generation_id=generation_id)
    assert state(database, generation_id, task_id)[:3] == (GenerationStatus.RUNNING, 60, "starting")

    tasks.complete_task(database, task_id, "outputs/a.jpg", "thumbs/outputs/a.jpg.jpg")
    tasks.set_task_progress(database, task_id, 50, "late write")
    tasks.complete_task(database, task_id, "outputs/b.jpg", "thumbs/outputs/b.jpg.jpg")
    with database() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None
        assert (task.status, task.progress, task.stage) == (
            GenerationStatus.COMPLETED, 100, "completed"
        )
        assert task.output_key == "outputs/a.jpg"


def test_a_generation_that_finished_is_not_made_running_again(database: SessionFactory) -> None:
    generation_id, task_id = make_task(database)
    with database() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        generation.status = GenerationStatus.FAILED
        session.commit()
    tasks.set_task_progress(database, task_id, 10, "starting", generation_id=generation_id)
    assert state(database, generation_id, task_id)[3] == GenerationStatus.FAILED


def test_concurrent_progress_writes_keep_the_highest(database: SessionFactory) -> None:
    generation_id, task_id = make_task(database)
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(
            lambda p: tasks.set_task_progress(database, task_id, p, f"stage {p}"), range(10, 90)
        ))
    assert state(database, generation_id, task_id)[1] == 89
