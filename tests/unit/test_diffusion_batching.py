"""The generative engine's batcher (engine/diffusion/batching.py), with a runner that records
what it is given instead of a GPU: requests of one kind that arrive together share a batch,
other kinds wait for their own, a cancelled job leaves its batch (which stops when none is left),
and an out-of-memory batch fails retryably and halves the batch size."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from core.engine import EngineUnavailable
from engine.diffusion.batching import Batcher, Job, OutOfMemory, wait


class Recorder:
    """A runner: each job's result is its seed; `steps` steps of `pause` seconds each."""

    def __init__(self, pause: float = 0.0, fail_over: int | None = None) -> None:
        self.batches: list[list[Any]] = []
        self.pause = pause
        self.fail_over = fail_over

    def __call__(self, jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        self.batches.append([job.seed for job in jobs])
        if self.fail_over is not None and len(jobs) > self.fail_over:
            raise OutOfMemory("CUDA out of memory")
        for step in range(1, jobs[0].steps + 1):
            time.sleep(self.pause)
            on_step(step)
        return [job.seed for job in jobs]


def job(seed: int, kind: str = "tryon", steps: int = 3) -> Job:
    return Job((kind, 48, 64, steps), {"operation": kind}, seed=seed, steps=steps)


def run_together(batcher: Batcher, jobs: list[Job]) -> list[Any]:
    with ThreadPoolExecutor(len(jobs)) as pool:
        return list(pool.map(lambda j: wait(batcher.submit(j), lambda _s: None), jobs))


def test_requests_arriving_together_share_one_batch() -> None:
    runner = Recorder()
    batcher = Batcher(runner, max_batch=4, window=0.2)
    try:
        assert run_together(batcher, [job(i) for i in range(4)]) == [0, 1, 2, 3]
    finally:
        batcher.close()
    assert [sorted(batch) for batch in runner.batches] == [[0, 1, 2, 3]]
    assert batcher.stats.largest == 4 and batcher.stats.images == 4


def test_a_batch_never_exceeds_the_limit_nor_mixes_kinds() -> None:
    runner = Recorder()
    batcher = Batcher(runner, max_batch=2, window=0.2)
    jobs = [job(1), job(2, "relight"), job(3), job(4), job(5, "relight")]
    try:
        assert run_together(batcher, jobs) == [1, 2, 3, 4, 5]
    finally:
        batcher.close()
    assert all(len(batch) <= 2 for batch in runner.batches)
    kinds = {1: "t", 3: "t", 4: "t", 2: "r", 5: "r"}
    assert all(len({kinds[seed] for seed in batch}) == 1 for batch in runner.batches)
    assert sorted(seed for batch in runner.batches for seed in batch) == [1, 2, 3, 4, 5]


def test_each_step_is_reported_to_the_waiting_caller() -> None:
    batcher = Batcher(Recorder(pause=0.1), max_batch=1, window=0.0)
    seen: list[int] = []
    try:
        assert wait(batcher.submit(job(7, steps=5)), seen.append, poll=0.01) == 7
    finally:
        batcher.close()
    assert seen == sorted(seen) and seen[-1] == 5 and len(set(seen)) >= 4


def test_a_cancelled_caller_stops_its_batch_mid_way() -> None:
    runner = Recorder(pause=0.05)
    batcher = Batcher(runner, max_batch=1, window=0.0)
    lone = batcher.submit(job(1, steps=100))
    try:
        deadline = time.monotonic() + 5
        while lone.step < 3:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        lone.cancel()
        # The next job runs as soon as the cancelled batch has stopped, long before its 100
        # steps (5 s) would have ended.
        started = time.monotonic()
        assert wait(batcher.submit(job(2, steps=1)), lambda _s: None) == 2
        assert time.monotonic() - started < 2
    finally:
        batcher.close()
    assert 3 <= lone.step < 100
    assert lone.future.cancelled()


def test_a_cancelled_job_leaves_a_shared_batch_that_goes_on() -> None:
    runner = Recorder(pause=0.02)
    batcher = Batcher(runner, max_batch=2, window=0.2)
    first, second = job(1, steps=20), job(2, steps=20)
    try:
        batcher.submit(first)
        batcher.submit(second)
        while first.step < 2:
            time.sleep(0.005)
        first.cancel()
        assert wait(second, lambda _s: None) == 2
    finally:
        batcher.close()
    assert second.step == 20 and first.future.cancelled()


def test_out_of_memory_fails_retryably_and_halves_the_batch() -> None:
    runner = Recorder(fail_over=1)
    batcher = Batcher(runner, max_batch=4, window=0.2)
    jobs = [job(i) for i in range(4)]
    try:
        with ThreadPoolExecutor(4) as pool:
            errors = list(pool.map(lambda j: _error(batcher, j), jobs))
        assert all(isinstance(error, EngineUnavailable) and error.retryable for error in errors)
        assert batcher.max_batch == 2 and batcher.stats.out_of_memory == 1
        # The retries: batches of 2 still fail, and then run one at a time.
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda j: _error(batcher, j), [job(5), job(6)]))
        assert batcher.max_batch == 1
        assert run_together(batcher, [job(7), job(8)]) == [7, 8]
    finally:
        batcher.close()
    assert runner.batches[-2:] in ([[7], [8]], [[8], [7]])


def _error(batcher: Batcher, item: Job) -> BaseException | None:
    try:
        wait(batcher.submit(item), lambda _s: None)
    except Exception as error:  # noqa: BLE001 - the test looks at which error it is
        return error
    return None


def test_any_other_failure_reaches_every_caller_of_the_batch() -> None:
    def broken(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        raise ValueError("bad tensor shapes")

    batcher = Batcher(broken, max_batch=2, window=0.2)
    try:
        errors = []
        lock = threading.Lock()

        def call(item: Job) -> None:
            try:
                wait(batcher.submit(item), lambda _s: None)
            except ValueError as error:
                with lock:
                    errors.append(str(error))

        with ThreadPoolExecutor(2) as pool:
            list(pool.map(call, [job(1), job(2)]))
        assert errors == ["bad tensor shapes"] * 2
    finally:
        batcher.close()


def test_the_batch_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_batch"):
        Batcher(Recorder(), max_batch=0, window=0.0)
