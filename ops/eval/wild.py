"""People in the wild for `make eval`: every people-wild photo's cut-out scored against its
reference mask (IoU and mean alpha error), beside the targets."""

from __future__ import annotations

import contextlib
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from core.engine import Background, EngineError, ImageEngine
from ops.eval.cases import Case, Outcome, jpgs
from ops.eval.running import Loader

WILD_MEAN_IOU = 0.93  # targets of issue 13: mean IoU over the people-wild masks ...
WILD_EACH_IOU = 0.90  # ... and IoU of each photo


@dataclass
class WildScore:
    photo: Path
    ms: float
    alpha: NDArray[Any] | None = None  # float32 0..1, the photo's size
    error: str | None = None
    iou: float = 0.0
    alpha_error: float = 1.0


def wild_pairs(fixtures: Path) -> list[tuple[Path, Path]]:
    """(photo, reference mask) for every people-wild photo that has its mask."""
    folder = fixtures / "people-wild"
    return [(photo, photo.with_suffix(".mask.png")) for photo in jpgs(folder)
            if photo.with_suffix(".mask.png").exists()]


def reference(mask: Path) -> NDArray[Any]:
    return np.asarray(Image.open(mask).convert("L"), np.float32) / 255.0


def score(photo: Path, mask: Path, ms: float, alpha: NDArray[Any] | None,
          error: str | None) -> WildScore:
    """IoU (both mattes thresholded at 0.5) and mean absolute alpha error; a refusal or an
    output of the wrong size scores IoU 0 and error 1."""
    result = WildScore(photo, ms, alpha, error)
    truth = reference(mask)
    if alpha is None or alpha.shape != truth.shape:
        if alpha is not None:
            result.error = f"matte {alpha.shape[::-1]} != photo {truth.shape[::-1]}"
        return result
    ours, theirs = alpha > 0.5, truth > 0.5
    result.iou = float((ours & theirs).sum() / max(1, (ours | theirs).sum()))
    result.alpha_error = float(np.abs(alpha - truth).mean())
    return result


def engine_wild(engine: ImageEngine, pairs: list[tuple[Path, Path]],
                load: Loader) -> list[WildScore]:
    """This engine's cut-out (background replace, transparent) of every people-wild photo."""
    transparent = Background.builtin("transparent")
    with contextlib.suppress(EngineError):  # warm-up: models loaded before timing
        engine.replace_background(load(pairs[0][0]), transparent)
    scores = []
    for photo, mask in pairs:
        start = time.perf_counter()
        try:
            out = engine.replace_background(load(photo), transparent)
            ms = (time.perf_counter() - start) * 1000
            alpha = np.asarray(out.getchannel("A"), np.float32) / 255.0
            scores.append(score(photo, mask, ms, alpha, None))
        except EngineError as error:
            ms = (time.perf_counter() - start) * 1000
            scores.append(score(photo, mask, ms, None, f"{type(error).__name__}: "
                                                       f"{error.message}"))
    return scores


def wild_cases(pairs: list[tuple[Path, Path]]) -> list[Case]:
    return [Case("replace_background", photo, None, "transparent") for photo, _ in pairs]


def wild_from_outcomes(pairs: list[tuple[Path, Path]],
                       outcomes: list[Outcome]) -> list[WildScore]:
    scores = []
    for (photo, mask), outcome in zip(pairs, outcomes, strict=True):
        alpha = None
        if outcome.image is not None:
            alpha = np.asarray(outcome.image.convert("RGBA").getchannel("A"), np.float32) / 255
        scores.append(score(photo, mask, outcome.ms, alpha, outcome.error))
    return scores


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0

