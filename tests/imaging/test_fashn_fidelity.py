"""The output gate's fidelity checks (engine/diffusion/fidelity) in the generative engine, on
FASHN's try-on with the tiny random-weight set (.venv-imaging): every try-on's fidelity scores
are logged per attempt beside the artefact gate's; the random weights' noise is refused by both
(the artefact gate's reason is the one shown); and a try-on that looks like a photo but is not
the garment (the model's own photo handed back, as a model that ignored the garment would)
passes the artefact gate, is refused for fidelity after one other seed, with its reason in
plain words."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageOps

from core.engine import EngineError
from engine.arrays import Image8
from engine.diffusion import fidelity, frames, gate
from engine.diffusion.batching import Job
from engine.diffusion.engine import DiffusionEngine
from engine.diffusion.settings import DiffusionSettings
from ops.weights import build_tiny
from tests.support.paths import fixture_images

STEPS = 2


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("weights") / "tiny"
    build_tiny(root)
    return root


def photo(folder: str, index: int = 0) -> Image.Image:
    with Image.open(fixture_images(folder)[index]) as opened:
        return ImageOps.exif_transpose(opened).convert("RGB")


def engine_for(weights: Path) -> DiffusionEngine:
    return DiffusionEngine(DiffusionSettings(weights, size=(48, 64), steps=STEPS, tryon="fashn",
                                             tryon_steps=STEPS, gate="enforce"))


def logged(records: list[logging.LogRecord], name: str) -> list[dict[str, Any]]:
    return [getattr(record, name) for record in records if hasattr(record, name)]


def test_noise_is_refused_by_both_and_its_fidelity_scores_are_logged(
    tiny: Path, caplog: pytest.LogCaptureFixture
) -> None:
    engine = engine_for(tiny)
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    try:
        with pytest.raises(gate.ArtefactRefused) as refused:
            engine.body_swap(photo("garments"), photo("catalog-models"), None)
    finally:
        engine.close()
    assert "came out as noise" in str(refused.value)  # the artefact gate's reason first
    scores = logged(caplog.records, "fidelity")
    print("\nFASHN try-on on the tiny weights, fidelity: " + "; ".join(
        f"attempt {s['attempt']}: colour {s['garment_colour']} pattern {s['garment_pattern']} "
        f"print {s['print_survival']} face {s['face']} skin {s['skin']} proportions "
        f"{s['proportions']} outline {s['outline']} refused {s['failures']}" for s in scores))
    assert [s["attempt"] for s in scores] == [1, 2]
    assert [s["seed"] for s in scores] == [s["seed"] for s in logged(caplog.records, "gate")]
    for s in scores:
        assert "garment_colour" in s["failures"] or "garment_pattern" in s["failures"], s
        assert s["face"] is not None and s["face"] > fidelity.MIN_FACE  # pasted back as it was


def test_a_photo_that_is_not_the_garment_is_refused_for_fidelity(
    tiny: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The model's own photo comes back from the try-on (its white tank top, not the lavender
    printed tee sent): a photo to the artefact gate, refused for fidelity on both seeds."""
    engine = engine_for(tiny)
    assert engine.models.fashn is not None
    size = engine.models.fashn.size
    seeds: list[int] = []

    def unchanged(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Image8]:
        seeds.extend(job.seed for job in jobs)
        return [frames.letterbox(job.payload["inputs"].person, size)[0] for job in jobs]

    engine.batcher.runner = unchanged
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    try:
        with pytest.raises(fidelity.FidelityRefused) as refused:
            engine.body_swap(photo("garments"), photo("catalog-models"), None)
    finally:
        engine.close()
    assert isinstance(refused.value, EngineError) and not refused.value.retryable
    assert str(refused.value).startswith("We could not make a faithful image (the garment's ")
    assert str(refused.value).endswith("your credits were returned.")
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    assert [s["failures"] for s in logged(caplog.records, "gate")] == [[], []]
    scores = logged(caplog.records, "fidelity")
    print("\nthe model's own photo handed back: " + "; ".join(str(s) for s in scores))
    assert [s["attempt"] for s in scores] == [1, 2]
    for s in scores:
        assert "garment_colour" in s["failures"], s
        assert s["face"] > 0.99 and "proportions" not in s["failures"], s
