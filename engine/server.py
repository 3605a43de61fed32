"""A small HTTP service implementing `engine/REMOTE_CONTRACT.md` on top of any `ImageEngine`.

Jobs run on a fixed thread pool; the job table is in memory (finished jobs are forgotten after
`JOB_TTL_SECONDS`). `python -m engine.server --port N` serves the built-in CPU engine, which is
how the remote path is exercised without a GPU; a GPU service implements the same contract.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import io
import logging
import threading
import time
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from PIL import Image, ImageOps, UnidentifiedImageError
from pydantic import BaseModel, Field

from core.engine import (
    PLACEMENT_OFFSET_LIMIT,
    PLACEMENT_SCALE_RANGE,
    Background,
    EngineError,
    EngineUnavailable,
    ImageEngine,
    ImageTooSmall,
    NoGarmentFound,
    NoPersonFound,
    NoSubjectFound,
    Placement,
    collecting_notes,
)

log = logging.getLogger("engine.server")

JOB_TTL_SECONDS = 600.0
MAX_QUEUED = 256
MAX_MEGAPIXELS = 40.0

Status = Literal["queued", "running", "completed", "failed", "cancelled"]


def error_code(error: EngineError) -> str:
    """The contract's code for an engine error (subclasses first)."""
    for error_type, code in (
        (ImageTooSmall, "image_too_small"),
        (NoPersonFound, "no_person"),
        (NoGarmentFound, "no_garment"),
        (NoSubjectFound, "no_subject"),
        (EngineUnavailable, "unavailable"),
    ):
        if isinstance(error, error_type):
            return code
    return "unavailable" if error.retryable else "rejected"


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, retryable: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.body = {"code": code, "message": message, "retryable": retryable}


class _Cancelled(BaseException):
    """Raised from the progress callback to stop a cancelled job at the engine's next stage.

    A BaseException so an engine's `except Exception` cannot swallow it."""


class BackgroundIn(BaseModel):
    kind: Literal["image", "transparent", "white"]
    image: str | None = None


class PlacementIn(BaseModel):
    """The user's adjustment of the subject's place (core.engine.Placement): offsets as
    fractions of the frame, a scale factor around the subject's ground point."""

    x: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    y: float = Field(0.0, ge=-PLACEMENT_OFFSET_LIMIT, le=PLACEMENT_OFFSET_LIMIT)
    scale: float = Field(1.0, ge=PLACEMENT_SCALE_RANGE[0], le=PLACEMENT_SCALE_RANGE[1])


class JobIn(BaseModel):
    operation: Literal["body_swap", "replace_background"]
    photo: str
    model: str | None = None
    background: BackgroundIn | None = None
    placement: PlacementIn | None = None


@dataclass
class Job:
    id: str
    operation: str
    status: Status = "queued"
    progress: float = 0.0
    stage: str = ""
    error: dict[str, Any] | None = None
    result: bytes | None = None
    notes: list[str] = field(default_factory=list)
    released: bool = False
    cancel: threading.Event = field(default_factory=threading.Event)
    future: Future[None] | None = None
    finished_at: float | None = None

    def view(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "operation": self.operation,
            "status": self.status,
            "progress": round(self.progress, 4),
            "stage": self.stage,
            "error": self.error,
            "notes": list(self.notes),
        }


def decode_image(data: str | None, name: str) -> Image.Image:
    if not data:
        raise ApiError(400, "invalid_request", f"The {name} is missing.")
    try:
        raw = base64.b64decode(data, validate=True)
        encoded = Image.open(io.BytesIO(raw))
        if encoded.format not in ("PNG", "JPEG"):
            raise ApiError(400, "invalid_request", f"The {name} must be a PNG or JPEG image.")
        if encoded.width * encoded.height > MAX_MEGAPIXELS * 1_000_000:
            raise ApiError(400, "invalid_request", f"The {name} is over {MAX_MEGAPIXELS:g} MP.")
        image: Image.Image = ImageOps.exif_transpose(encoded)
        if image.mode in ("RGBA", "LA", "PA") or (
            image.mode == "P" and "transparency" in image.info
        ):
            rgba = image.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
            return flat
        return image.convert("RGB")
    except (binascii.Error, ValueError, UnidentifiedImageError, OSError):
        raise ApiError(400, "invalid_request", f"The {name} is not a readable image.") from None


def encode_result(image: Image.Image) -> bytes:
    out = io.BytesIO()
    keep_alpha = image.mode in ("RGBA", "LA", "PA")
    image.convert("RGBA" if keep_alpha else "RGB").save(out, "PNG", compress_level=1)
    return out.getvalue()


class JobTable:
    """The in-memory job table and the thread pool that runs the jobs."""

    def __init__(self, engine: ImageEngine, workers: int) -> None:
        self.engine = engine
        self.workers = workers
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="engine-job")
        self.lock = threading.Lock()
        self.jobs: dict[str, Job] = {}
        self.idempotency: dict[str, str] = {}
        self.closed = False

    def submit(self, request: JobIn, key: str | None) -> Job:
        photo = decode_image(request.photo, "photo")
        model: Image.Image | None = None
        if request.operation == "body_swap":
            model = decode_image(request.model, "model")
        background: Background | None = None
        if request.background is not None:
            if request.background.kind == "image":
                background = Background.photo(
                    decode_image(request.background.image, "background image")
                )
            else:
                background = Background.builtin(request.background.kind)
        elif request.operation == "replace_background":
            raise ApiError(400, "invalid_request", "A background replace needs a background.")
        with self.lock:
            self._expire()
            if key is not None and key in self.idempotency and self.idempotency[key] in self.jobs:
                return self.jobs[self.idempotency[key]]
            if self.closed:
                raise ApiError(503, "unavailable", "The service is shutting down.", True)
            queued = sum(1 for job in self.jobs.values() if job.status == "queued")
            if queued >= MAX_QUEUED:
                raise ApiError(503, "unavailable", "The service is busy; try again.", True)
            job = Job(id=uuid.uuid4().hex, operation=request.operation)
            self.jobs[job.id] = job
            if key is not None:
                self.idempotency[key] = job.id
            placement = (
                Placement(request.placement.x, request.placement.y, request.placement.scale)
                if request.placement is not None
                else None
            )
            job.future = self.pool.submit(self._run, job, photo, model, background, placement)
        return job

    def _run(
        self,
        job: Job,
        photo: Image.Image,
        model: Image.Image | None,
        background: Background | None,
        placement: Placement | None = None,
    ) -> None:
        with self.lock:
            if job.status != "queued":
                return
            job.status = "running"

        def progress(fraction: float, stage: str) -> None:
            if job.cancel.is_set():
                raise _Cancelled()
            with self.lock:
                job.progress = min(max(float(fraction), 0.0), 1.0)
                job.stage = stage

        try:
            with collecting_notes() as notes:
                if job.operation == "body_swap":
                    assert model is not None
                    image = self.engine.body_swap(photo, model, background, progress, placement)
                else:
                    assert background is not None
                    image = self.engine.replace_background(photo, background, progress, placement)
            data = encode_result(image)
        except _Cancelled:
            self._finish(job, "cancelled")
        except EngineError as error:
            body = {
                "code": error_code(error),
                "message": error.message,
                "retryable": error.retryable,
            }
            self._finish(job, "failed", error=body)
        except Exception as error:  # a bug in the engine: retryable, like an activity crash
            log.exception("job %s (%s) crashed", job.id, job.operation)
            body = {
                "code": "internal",
                "message": f"The engine failed: {type(error).__name__}.",
                "retryable": True,
            }
            self._finish(job, "failed", error=body)
        else:
            self._finish(job, "completed", result=data, notes=notes)

    def _finish(
        self,
        job: Job,
        status: Status,
        error: dict[str, Any] | None = None,
        result: bytes | None = None,
        notes: list[str] | None = None,
    ) -> None:
        with self.lock:
            if job.status == "cancelled" or job.cancel.is_set():
                return  # cancelled meanwhile: the result is dropped
            job.status = status
            job.error = error
            job.result = result
            job.notes = list(notes or [])
            if status == "completed":
                job.progress = 1.0
            job.finished_at = time.monotonic()

    def get(self, job_id: str) -> Job:
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise ApiError(404, "not_found", "No such job (expired, or the service restarted).")
        return job

    def cancel(self, job_id: str) -> None:
        job = self.get(job_id)
        with self.lock:
            if job.status in ("queued", "running"):
                job.cancel.set()
                job.status = "cancelled"
                job.finished_at = time.monotonic()
                if job.future is not None:
                    job.future.cancel()  # only succeeds while still queued
            else:
                job.result = None
                job.released = True

    def _expire(self) -> None:
        """Forget finished jobs after the TTL (called with the lock held)."""
        now = time.monotonic()
        for job_id in [
            job.id
            for job in self.jobs.values()
            if job.finished_at is not None and now - job.finished_at > JOB_TTL_SECONDS
        ]:
            del self.jobs[job_id]
        live = set(self.jobs)
        for key in [key for key, job_id in self.idempotency.items() if job_id not in live]:
            del self.idempotency[key]

    def counts(self) -> dict[str, int]:
        with self.lock:
            statuses = [job.status for job in self.jobs.values()]
        return {"queued": statuses.count("queued"), "running": statuses.count("running")}

    def shutdown(self) -> None:
        with self.lock:
            self.closed = True
            for job in self.jobs.values():
                if job.status in ("queued", "running"):
                    job.cancel.set()
                    job.status = "cancelled"
                    job.finished_at = time.monotonic()
        self.pool.shutdown(wait=False, cancel_futures=True)


def _error_response(status: int, body: dict[str, Any]) -> JSONResponse:
    headers = {"Retry-After": "1"} if status == 503 else None
    return JSONResponse({"error": body}, status_code=status, headers=headers)


def create_app(engine: ImageEngine, workers: int = 1) -> FastAPI:
    """The service for `engine`, running at most `workers` jobs at once."""
    table = JobTable(engine, workers)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        table.shutdown()

    app = FastAPI(
        title="Image engine service",
        version="1",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.jobs = table

    @app.exception_handler(ApiError)
    async def api_error(_request: Request, error: ApiError) -> JSONResponse:
        return _error_response(error.status, error.body)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
        message = f"Invalid request: {where or 'body'}: {first.get('msg', 'invalid')}."
        return _error_response(
            400, {"code": "invalid_request", "message": message, "retryable": False}
        )

    # Sync handlers: FastAPI runs them in its thread pool (decoding images is CPU work).
    @app.post("/v1/jobs", status_code=202)
    def submit(request: JobIn, raw: Request) -> dict[str, str]:
        job = table.submit(request, raw.headers.get("idempotency-key"))
        return {"id": job.id, "status": job.status}

    @app.get("/v1/jobs/{job_id}")
    def poll(job_id: str) -> dict[str, Any]:
        job = table.get(job_id)
        with table.lock:
            return job.view()

    @app.get("/v1/jobs/{job_id}/result")
    def result(job_id: str) -> Response:
        job = table.get(job_id)
        with table.lock:
            status, data, released = job.status, job.result, job.released
        if status != "completed":
            raise ApiError(409, "not_completed", f"The job is {status}.")
        if data is None or released:
            raise ApiError(410, "gone", "The result was already released.")
        return Response(content=data, media_type="image/png")

    @app.delete("/v1/jobs/{job_id}", status_code=204)
    def cancel(job_id: str) -> Response:
        table.cancel(job_id)
        return Response(status_code=204)

    @app.get("/v1/health")
    def health() -> dict[str, Any]:
        return {"status": "ok", "workers": table.workers, **table.counts()}

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the CPU engine over the remote contract.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8500)
    parser.add_argument("--workers", type=int, default=1, help="jobs run at once")
    args = parser.parse_args()

    import uvicorn

    from engine.cpu import CpuEngine

    uvicorn.run(create_app(CpuEngine(), workers=args.workers), host=args.host, port=args.port)


if __name__ == "__main__":
    main()
