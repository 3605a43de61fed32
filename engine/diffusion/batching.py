"""One model copy per GPU, shared by every activity on the worker: requests that arrive within a few
milliseconds of each other are denoised as one batch (plain Python; no torch here).

Each activity thread prepares its request on the CPU (analysis, masks, resizing), submits a
:class:`Job` and waits for it; one GPU thread takes jobs off the queue, gathers those of the same
kind (operation and working size) that arrive within `window` seconds, up to `max_batch`, and runs
them together. While a batch denoises, each job's `step` rises, which its own thread reports as
progress; a job whose caller went away (the activity was cancelled) is marked and the batch stops
as soon as no live job is left in it.

Out of GPU memory, the batch's jobs fail with a retryable error and the batcher lowers its
`max_batch` to half the failed batch: the retries (Temporal's, per activity) run smaller.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from core.engine import EngineError, EngineUnavailable

log = logging.getLogger("engine.diffusion")


class OutOfMemory(Exception):
    """The device ran out of memory for a batch (the pipelines turn torch's error into this)."""


class JobCancelled(Exception):
    """Every job of the batch was cancelled: the denoising loop stops."""


@dataclass(eq=False)
class Job:
    """One image's request: `key` says which jobs may share a batch, `payload` is what the
    runner needs (prepared CPU tensors and arrays), `seed` its noise."""

    key: Hashable
    payload: Any
    seed: int
    steps: int
    step: int = 0  # denoising steps done so far (written by the GPU thread)
    cancelled: threading.Event = field(default_factory=threading.Event)
    future: Future[Any] = field(default_factory=Future)

    def cancel(self) -> None:
        self.cancelled.set()
        self.future.cancel()


# Runs one batch: returns one result per job, in order. It calls `on_step(i)` after each
# denoising step i (1-based) and may raise OutOfMemory or JobCancelled.
Runner = Callable[[Sequence[Job], Callable[[int], None]], list[Any]]


@dataclass
class BatchStats:
    """What the batcher has done (for the model-load report, metrics and the bench)."""

    batches: int = 0
    images: int = 0
    largest: int = 0
    out_of_memory: int = 0
    sizes: list[int] = field(default_factory=list)


class Batcher:
    def __init__(self, runner: Runner, max_batch: int, window: float) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self.runner = runner
        self.max_batch = max_batch
        self.window = window
        self.stats = BatchStats()
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._held: list[Job] = []  # taken off the queue while gathering another kind's batch
        self._thread = threading.Thread(target=self._loop, name="diffusion-gpu", daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> Job:
        self._queue.put(job)
        return job

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)

    def _next(self, timeout: float | None) -> Job | None:
        if self._held:
            return self._held.pop(0)
        return self._queue.get(timeout=timeout) if timeout is not None else self._queue.get()

    def _gather(self, first: Job) -> list[Job]:
        batch = [first]
        deadline = time.monotonic() + self.window
        passed: list[Job] = []
        while len(batch) < self.max_batch:
            remaining = deadline - time.monotonic()
            if remaining <= 0 and not self._held:
                break
            try:
                job = self._next(max(remaining, 0.0))
            except queue.Empty:
                break
            if job is None:
                self._queue.put(None)  # close() after this batch
                break
            (batch if job.key == first.key else passed).append(job)
        self._held = passed + self._held
        return batch

    def _loop(self) -> None:
        while True:
            first = self._next(None)
            if first is None:
                return
            batch = [job for job in self._gather(first) if not job.cancelled.is_set()]
            if batch:
                self._run(batch)

    def _run(self, batch: list[Job]) -> None:
        def on_step(step: int) -> None:
            for job in batch:
                job.step = step
            if all(job.cancelled.is_set() for job in batch):
                raise JobCancelled()

        try:
            results = self.runner(batch, on_step)
        except JobCancelled:
            log.info("batch of %d cancelled at step %d of %d", len(batch), batch[0].step,
                     batch[0].steps)
            return
        except OutOfMemory:
            self.stats.out_of_memory += 1
            self.max_batch = max(1, len(batch) // 2)
            log.warning("out of memory at a batch of %d: batches are now at most %d",
                        len(batch), self.max_batch)
            self._fail(batch, EngineUnavailable(
                "The image engine ran out of GPU memory; the image is retried in a smaller batch."))
            return
        except EngineError as error:
            self._fail(batch, error)
            return
        except Exception as error:  # noqa: BLE001 - every waiting caller must hear of it
            log.exception("diffusion batch failed")
            self._fail(batch, error)
            return
        self.stats.batches += 1
        self.stats.images += len(batch)
        self.stats.largest = max(self.stats.largest, len(batch))
        self.stats.sizes.append(len(batch))
        for job, result in zip(batch, results, strict=True):
            if not job.future.done():
                job.future.set_result(result)

    @staticmethod
    def _fail(batch: Sequence[Job], error: BaseException) -> None:
        for job in batch:
            if not job.future.done():
                job.future.set_exception(error)


def wait(job: Job, report: Callable[[int], None], poll: float = 0.05) -> Any:
    """The job's result, reporting each new denoising step through `report` meanwhile. Waits in
    short slices so that an exception raised into this thread (a cancelled activity) arrives at
    once; the job is then marked cancelled and the batch leaves it."""
    shown = -1
    try:
        while True:
            try:
                return job.future.result(timeout=poll)
            except TimeoutError:
                pass
            if job.step != shown:
                shown = job.step
                report(shown)
    except BaseException:
        job.cancel()
        raise
    finally:
        if job.future.done() and not job.future.cancelled() and job.step != shown:
            report(job.step)


__all__ = ["BatchStats", "Batcher", "Job", "JobCancelled", "OutOfMemory", "Runner", "wait"]
