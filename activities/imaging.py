"""The imaging activity: renders one input image and stores the result, on the imaging queue.

The engine is CPU-bound and synchronous; this activity is synchronous too and runs in the
imaging worker's thread pool, so it never blocks the event loop. It heartbeats from a side
thread while the engine works (so a killed worker is noticed within the heartbeat timeout),
and turns the engine's stage reports into the task's visible progress.

It also makes the thumbnails and stores the output, and records the task as completed in the
same step: the decoded photo and the rendered image are already in memory here, and the person
waiting sees the result as soon as it exists, without one more trip through the workflow.
Running it again (a retry after a crash) is safe: a task already completed returns its stored
output without rendering again.
"""

from __future__ import annotations

import contextvars
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from PIL import Image
from sqlalchemy import select, update
from sqlalchemy.exc import SQLAlchemyError
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.provenance_facts import provenance_facts
from activities.registry import Queue, Registration, WorkerDeps
from core.contracts.generation import RUN_IMAGING, FailureType, ImagingInput, ImagingOutput
from core.db import SessionFactory
from core.engine import (
    NOTE_LIMIT,
    Background,
    EngineError,
    ImageEngine,
    Placement,
    ProgressFn,
    collecting_notes,
)
from core.enums import GenerationKind, GenerationStatus
from core.errors import DomainError
from core.generations.tasks import IMAGING_RANGE, complete_task, set_task_progress
from core.keys import output_key, thumbnail_key
from core.models.generations import Generation, GenerationImage, UploadedFile
from core.observability.metrics import ImagingMetrics
from core.observability.tracing import StageSpans, in_current_context, tag_current_span
from core.photos.analysis import analysis_from_json, analysis_to_json
from core.photos.images import decode_rgb, encode_output, test_watermark, thumbnail_jpeg
from core.photos.inputs import check_stored_image
from core.provenance.manifest import Ingredient, ProvenanceFacts, action_of, xmp_packet
from core.provenance.setup import Provenance, provenance_from_settings
from core.settings import Settings
from core.storage import Storage

CATALOG_CACHE_SIZE = 32  # decoded catalog photos kept per worker (about 3 MB each)


@contextmanager
def heartbeating(interval: float) -> Iterator[None]:
    """Heartbeat every `interval` seconds until the block ends, from a side thread that runs in
    this activity's context (heartbeat() finds its activity through context variables)."""
    stop = threading.Event()
    context = contextvars.copy_context()

    def beat() -> None:
        while not stop.wait(interval):
            activity.heartbeat()

    thread = threading.Thread(target=context.run, args=(beat,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


class ImagingActivities:
    def __init__(
        self,
        sessions: SessionFactory,
        storage: Storage,
        engine: ImageEngine,
        settings: Settings,
        heartbeat_interval: float = 2.0,
        provenance: Provenance | None = None,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.engine = engine
        self.settings = settings
        self.heartbeat_interval = heartbeat_interval
        # The worker builds it at start (a chain that cannot sign stops the worker there);
        # made on first use for an instance built without one (tests).
        self._provenance = provenance
        self._catalog_cache: dict[str, Image.Image] = {}
        self._io = ThreadPoolExecutor(4, thread_name_prefix="imaging-io")
        self._progress_writer = ThreadPoolExecutor(1, thread_name_prefix="imaging-progress")
        self._cache_lock = threading.Lock()

    def _catalog_image(self, key: str) -> Image.Image:
        """Catalog photos (models, backgrounds) recur in every generation: keep them decoded.
        Their keys never change content (re-seeding writes new keys), so caching is safe."""
        with self._cache_lock:
            cached = self._catalog_cache.get(key)
        if cached is not None:
            return cached
        image = decode_rgb(self.storage.get_bytes(key))
        with self._cache_lock:
            self._catalog_cache[key] = image
            while len(self._catalog_cache) > CATALOG_CACHE_SIZE:
                self._catalog_cache.pop(next(iter(self._catalog_cache)))
        return image

    @property
    def provenance(self) -> Provenance:
        if self._provenance is None:
            self._provenance = provenance_from_settings(self.settings)
        return self._provenance

    def _background(self, kind: str | None, key: str | None) -> Background | None:
        if kind is None:
            return None
        if kind == "image":
            if key is None:
                raise ApplicationError("background photo has no key", non_retryable=True)
            return Background.photo(self._catalog_image(key))
        return Background.builtin(kind)

    def _already_done(self, task_id: str) -> ImagingOutput | None:
        with self.sessions() as session:
            row = session.execute(
                select(GenerationImage.status, GenerationImage.output_key)
                .where(GenerationImage.id == task_id)
            ).first()
        if row is None or row.status != GenerationStatus.COMPLETED or not row.output_key:
            return None
        key = row.output_key
        content_type = "image/png" if key.endswith(".png") else "image/jpeg"
        return ImagingOutput(output_key=key, content_type=content_type)

    @staticmethod
    def _placement(inp: ImagingInput) -> Placement | None:
        """A re-render's adjustment for the engine; values out of bounds (never from our API,
        which checks them) fail the task rather than render something else."""
        if inp.placement is None:
            return None
        try:
            return Placement(inp.placement.x, inp.placement.y, inp.placement.scale)
        except ValueError as error:
            raise ApplicationError(
                f"The placement is out of range: {error}.", type=FailureType.ENGINE_REJECTED,
                non_retryable=True,
            ) from None

    def _render(self, inp: ImagingInput, photo: Image.Image, progress: ProgressFn) -> Image.Image:
        background = self._background(inp.background_kind, inp.background_key)
        placement = self._placement(inp)
        try:
            if inp.service == GenerationKind.BODY_SWAP:
                if inp.model_key is None:
                    raise ApplicationError(
                        "A model swap needs a model.",
                        type=FailureType.ENGINE_REJECTED,
                        non_retryable=True,
                    )
                model = self._catalog_image(inp.model_key)
                if placement is not None:
                    return self.engine.body_swap(photo, model, background, progress, placement)
                return self.engine.body_swap(photo, model, background, progress)
            if background is None:
                raise ApplicationError(
                    "A background replace needs a background.",
                    type=FailureType.ENGINE_REJECTED,
                    non_retryable=True,
                )
            if placement is not None:
                return self.engine.replace_background(photo, background, progress, placement)
            return self.engine.replace_background(photo, background, progress)
        except EngineError as error:
            raise ApplicationError(
                error.message,
                type=(
                    FailureType.ENGINE_UNAVAILABLE
                    if error.retryable
                    else FailureType.ENGINE_REJECTED
                ),
                non_retryable=not error.retryable,
            ) from None

    def _checked_input(self, inp: ImagingInput) -> tuple[Image.Image, Ingredient]:
        """The input, decoded only once it is known to be the very object checked at submit
        (size and ETag), a JPEG, PNG or WebP, and within the byte and pixel limits: anything
        else fails the task at once, without a retry, and the task is refunded. With it, the
        photo as the output's Content Credentials name it: by its hash, never its bytes."""
        try:
            checked = check_stored_image(
                self.storage,
                self.settings,
                inp.input_key,
                "The image",
                "The image was not found; please upload it again.",
                expected_size=inp.input_size,
                expected_etag=inp.input_etag,
                # Format, bytes and pixels are checked from the header; the one full decode is
                # the engine's own, right below (a trial decode first cost 140-210 ms for a
                # 12-megapixel PNG or WebP).
                decode=False,
            )
            ingredient = Ingredient(
                kind="photo",
                title="Uploaded photo",
                identifier="sha256:" + hashlib.sha256(checked.data).hexdigest(),
                # A background replace edits the photo; a model swap makes a new person from it.
                relationship=(
                    "parentOf" if inp.service == GenerationKind.BURST_REPLACE else "inputTo"
                ),
                format=checked.info.mime_type,
            )
            return decode_rgb(checked.data), ingredient
        except DomainError as error:
            raise ApplicationError(
                error.message, type=FailureType.INPUT_REJECTED, non_retryable=True
            ) from None
        except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
            raise ApplicationError(
                "The image is damaged or incomplete.",
                type=FailureType.INPUT_REJECTED,
                non_retryable=True,
            ) from None

    def _refuse_what_the_analysis_rules_out(self, inp: ImagingInput, photo: Image.Image) -> None:
        """The upload's analysis (stored when it arrived, activities/photos.py) decides before
        the engine runs: a photo it rules out for this service (two people or a back view for a
        model swap, a landscape) fails the task at once with the reason, and the task is
        refunded. A task submitted before the analysis was stored gets it made here, once, and
        stored for the upload's next use; a re-render's input was analysed for its first run, and
        an analysis the submit judged already (the plan's analysis_checked) is not judged again."""
        if inp.placement is not None or inp.analysis_checked:
            return
        with self.sessions() as session:
            stored = session.execute(
                select(UploadedFile.analysis).where(UploadedFile.key == inp.input_key)
            ).scalar_one_or_none()
        if stored is None:
            from engine import analyse_photo

            stored = analysis_to_json(analyse_photo(photo))
            with self.sessions.begin() as session:
                session.execute(
                    update(UploadedFile)
                    .where(UploadedFile.key == inp.input_key, UploadedFile.analysis.is_(None))
                    .values(analysis=stored)
                )
        refusal = analysis_from_json(stored).refusal(inp.service)
        if refusal:
            raise ApplicationError(refusal, type=FailureType.ENGINE_REJECTED, non_retryable=True)

    def _input_thumbnail(self, input_key: str, photo: Image.Image) -> None:
        key = thumbnail_key(input_key)
        if self.storage.stat(key) is None:
            self.storage.put_bytes(key, thumbnail_jpeg(photo), "image/jpeg")

    def _provenance_facts(self, inp: ImagingInput, photo: Ingredient) -> ProvenanceFacts:
        # In the I/O pool, beside the engine: a test's instance builds its provenance here.
        return provenance_facts(self.sessions, self.provenance, inp, photo)

    def _store(
        self, inp: ImagingInput, result: Image.Image, facts: ProvenanceFacts
    ) -> tuple[str, str, str, dict[str, Any]]:
        """Encode, sign and upload the output, and its thumbnail beside it: the encoders and
        the uploads release the interpreter lock, and the person is waiting for exactly this.
        The output is signed here, once, on its final bytes (core/provenance/signing.py):
        the watermark of a test image is already in them, and nothing re-encodes them after."""
        _, source_type = action_of(facts)
        encoded = self._io.submit(encode_output, result, xmp_packet(source_type))
        # The thumbnail from the image in hand, so storing needs no second download.
        thumbnail = self._io.submit(thumbnail_jpeg, result)
        unsigned, content_type, extension = encoded.result()
        signed = self.provenance.signer.sign(unsigned, content_type, facts)
        data = signed.data
        key = output_key(inp.generation_id, inp.task_id, extension)
        thumb_key = thumbnail_key(key)
        uploads = [
            self._io.submit(in_current_context(self.storage.put_bytes), key, data, content_type),
            self._io.submit(
                in_current_context(self.storage.put_bytes),
                thumb_key,
                thumbnail.result(),
                "image/jpeg",
            ),
        ]
        for upload in uploads:
            upload.result()
        return key, thumb_key, content_type, signed.summary.to_json()

    def _record_first_progress(self, inp: ImagingInput, metrics: ImagingMetrics) -> None:
        """How long after the submit the task's first progress showed (the first service
        level; see core/observability/metrics.py). Runs on the progress writer right after that
        write; a metric never fails the task."""
        try:
            with self.sessions() as session:
                created_at = session.execute(
                    select(Generation.created_at).where(Generation.id == inp.generation_id)
                ).scalar_one_or_none()
        except SQLAlchemyError:
            return
        if created_at is not None:
            metrics.first_progress(created_at)

    @activity.defn(name=RUN_IMAGING)
    def run_imaging(self, inp: ImagingInput) -> ImagingOutput:
        tag_current_span("generation.id", inp.generation_id)
        done = self._already_done(inp.task_id)
        if done is not None:
            return done
        low, high = IMAGING_RANGE
        # The engine's stages as child spans of this activity's span.
        stages = StageSpans("engine")
        # Progress writes go to one background thread, in order: the engine never waits for
        # the database, and a late write cannot undo the completion (set_task_progress never
        # moves a finished task).
        writes = [
            self._progress_writer.submit(
                in_current_context(set_task_progress),
                self.sessions, inp.task_id, low, "starting", generation_id=inp.generation_id,
            )
        ]
        # Just written: the engine's first report needs no write of its own.
        last_write = [time.monotonic()]
        metrics = ImagingMetrics.current(inp.service)
        # Not for a re-render: its generation was submitted long before, which says nothing
        # about how soon its work starts.
        if inp.placement is None and (
            not activity.in_activity() or activity.info().attempt == 1
        ):
            writes.append(self._progress_writer.submit(self._record_first_progress, inp, metrics))

        def progress(fraction: float, stage: str) -> None:
            # Every report is a heartbeat with the stage as its details (the generative engine
            # reports each denoising step: "denoising, step 12 of 30" in the Temporal UI). The
            # SDK sends at most one per throttle interval, so this costs the server nothing
            # more; the side thread (heartbeating below) keeps beating between reports.
            if activity.in_activity():
                activity.heartbeat(stage)
            # Throttled: progress is for people, a write every quarter second is plenty.
            stages.report(stage)
            metrics.report(stage)
            now = time.monotonic()
            if now - last_write[0] >= 0.25:
                last_write[0] = now
                value = low + int((high - low) * min(max(fraction, 0.0), 1.0))
                writes.append(
                    self._progress_writer.submit(
                        in_current_context(set_task_progress),
                        self.sessions, inp.task_id, value, stage,
                    )
                )

        with heartbeating(self.heartbeat_interval):
            photo, photo_ingredient = self._checked_input(inp)
            # Read beside the engine: the output's credentials need it only once it is made.
            facts = self._io.submit(
                in_current_context(self._provenance_facts), inp, photo_ingredient
            )
            # The input's thumbnail for the progress view and My Images (the browser usually
            # made it already, a public API upload sent by URL has none), beside the engine
            # rather than before it; made before the analysis's refusal too, so that a refused
            # image shows its input rather than a broken one.
            input_thumbnail = self._io.submit(
                in_current_context(self._input_thumbnail), inp.input_key, photo
            )
            try:
                self._refuse_what_the_analysis_rules_out(inp, photo)
            except ApplicationError:
                input_thumbnail.result()
                raise
            try:
                with collecting_notes() as notes:
                    result = self._render(inp, photo, progress)
            finally:
                stages.close()
                metrics.close()
            if inp.watermark:
                result = test_watermark(result)
            key, thumb_key, content_type, credentials = self._store(inp, result, facts.result())
            input_thumbnail.result()
        for write in writes:
            write.result()  # surfaces a failed write (the activity is retried) rather than lose it
        complete_task(
            self.sessions, inp.task_id, key, thumb_key, note=" ".join(notes)[:NOTE_LIMIT] or None,
            credentials=credentials,
        )
        return ImagingOutput(output_key=key, content_type=content_type)


def _imaging_activities(deps: WorkerDeps) -> list[Callable[..., Any]]:
    imaging = ImagingActivities(
        deps.sessions,
        deps.storage,
        deps.require_engine(),
        deps.settings,
        heartbeat_interval=max(0.5, deps.settings.imaging_heartbeat_timeout_seconds / 4),
        provenance=deps.provenance,
    )
    return [imaging.run_imaging]


REGISTRATION = Registration(Queue.IMAGING, _imaging_activities)
