"""One `make eval` case run as the product runs it: the upload's analysis first, then the
engine with its quality gate, timed; the fixture photos decoded once."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from PIL import Image

from core.engine import Background, EngineError, ImageEngine
from core.photos.images import decode_rgb
from engine import quality
from ops.eval.cases import Case, Outcome


class Loader:
    """Decodes each fixture once."""

    def __init__(self) -> None:
        self.cache: dict[Path, Image.Image] = {}

    def __call__(self, path: Path) -> Image.Image:
        if path not in self.cache:
            self.cache[path] = decode_rgb(path.read_bytes())
        return self.cache[path]


def upload_refusal(case: Case, photo: Image.Image) -> str:
    """What the upload's analysis says against this case's service ("" when it allows it): the
    submit answers 422 with it, so the engine never sees the photo."""
    from core.photos.analysis import BODY_SWAP, BURST_REPLACE
    from engine.photo_analysis import analyse_photo

    service = BODY_SWAP if case.operation == "body_swap" else BURST_REPLACE
    return analyse_photo(np.asarray(photo.convert("RGB"))).refusal(service) or ""


def run_case(engine: ImageEngine, case: Case, load: Loader, analyse: bool = True) -> Outcome:
    """One case as the product runs it: the upload's analysis first (with `analyse`; a remote
    engine's own side does that), then the engine, its gate's report kept."""
    photo = load(case.photo)
    inputs = {"input": photo}
    background: Background | None = None
    if isinstance(case.background, Path):
        inputs["background"] = load(case.background)
        background = Background.photo(inputs["background"])
    elif isinstance(case.background, str):
        background = Background.builtin(case.background)
    model = load(case.model) if case.model is not None else None
    if model is not None:
        inputs["model"] = model
    if analyse:
        refusal = upload_refusal(case, photo)
        if refusal:
            return Outcome(case, 0.0, error=f"Refused at upload: {refusal}", inputs=inputs,
                           refused_at_upload=refusal)
    start = time.perf_counter()
    with quality.recording() as reports:
        outcome = _timed_call(engine, case, photo, model, background, inputs, start)
    if reports:
        outcome.quality = reports[-1].summary()
        outcome.gate_passed = reports[-1].passed
    return outcome


def _timed_call(engine: ImageEngine, case: Case, photo: Image.Image, model: Image.Image | None,
                background: Background | None, inputs: dict[str, Image.Image],
                start: float) -> Outcome:
    try:
        if case.operation == "body_swap":
            assert model is not None
            image = engine.body_swap(photo, model, background)
        else:
            assert background is not None
            image = engine.replace_background(photo, background)
        return Outcome(case, (time.perf_counter() - start) * 1000, image=image, inputs=inputs)
    except EngineError as error:
        ms = (time.perf_counter() - start) * 1000
        return Outcome(case, ms, error=f"{type(error).__name__}: {error.message}", inputs=inputs)
    except Exception as error:  # a bug, not a rejection: still draw it, keep going
        ms = (time.perf_counter() - start) * 1000
        return Outcome(case, ms, error=f"CRASH {type(error).__name__}: {error}", inputs=inputs)
