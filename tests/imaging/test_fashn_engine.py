"""The model swap on FASHN's try-on model (issue 35) inside the generative engine, on the tiny
random-weight set (.venv-imaging): a garment photo, and a dressed person's outfit, onto a
digital model; the native frame placed back into the model photo, only the garment's region
repainted; reproducible; progress per sampler step; cancel mid-sample; the artefact gate refusing
the random weights' noise. Outputs are compared before any JPEG encoding (byte for byte)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image, ImageOps

from core.engine import EngineError
from engine.analysis import find_subject
from engine.arrays import BoolMask, Image8
from engine.cpu import to_array
from engine.diffusion import gate, masks
from engine.diffusion.batching import Job, wait
from engine.diffusion.engine import DiffusionEngine
from engine.diffusion.fashn import tryon as fashn
from engine.diffusion.fashn.config import TINY
from engine.diffusion.fashn.dwpose_source import DWPoseSource
from engine.diffusion.settings import DiffusionSettings
from engine.digital_model import digital_model
from engine.swap_garment import classify_garment
from ops.weights import build_tiny
from tests.support.paths import fixture_images

STEPS = 4  # sampler steps: few, the tiny model is what is measured here, not image quality


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("weights") / "tiny"
    build_tiny(root)
    return root


def engine_for(weights: Path, **options: Any) -> DiffusionEngine:
    options.setdefault("gate", "pass")  # random weights make noise: scored, let through
    return DiffusionEngine(DiffusionSettings(weights, size=(48, 64), steps=4, tryon="fashn",
                                             tryon_steps=options.pop("tryon_steps", STEPS),
                                             **options))


@pytest.fixture(scope="module")
def engine(tiny: Path) -> Iterator[DiffusionEngine]:
    made = engine_for(tiny, batch_window=0.3)
    made.warm_up()
    yield made
    made.close()


def photo(folder: str, index: int = 0) -> Image.Image:
    with Image.open(fixture_images(folder)[index]) as opened:
        return ImageOps.exif_transpose(opened).convert("RGB")


def garment_region(garment: Image.Image, model_rgb: Image8) -> BoolMask:
    kind = classify_garment(find_subject(to_array(garment)).cutout.alpha).kind
    return masks.tryon_mask(digital_model(model_rgb), kind)


def test_only_fashn_is_loaded_and_the_layout_is_checked(engine: DiffusionEngine) -> None:
    assert engine.models.fashn is not None and engine.models.tryon_unet is None
    assert engine.models.fashn.size == (TINY.width, TINY.height)
    report = engine.load_report()
    assert report["parameters"] > 1_000_000 and report["memory_bytes"] > 0


def test_a_garment_photo_on_the_digital_model(engine: DiffusionEngine) -> None:
    garment, model = photo("garments"), photo("catalog-models")
    stages: list[tuple[float, str]] = []
    shown = {step: threading.Event() for step in range(1, STEPS + 1)}
    real = engine.batcher.runner

    def in_step(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        # Each step waits until the caller has shown it (the tiny model's steps take less time
        # than the caller's 50 ms poll; a real GPU's take longer).
        def step(index: int) -> None:
            on_step(index)
            shown[index].wait(5)

        return real(jobs, step)

    def progress(fraction: float, stage: str) -> None:
        stages.append((fraction, stage))
        for index, event in shown.items():
            if stage == f"denoising, step {index} of {STEPS}":
                event.set()

    engine.batcher.runner = in_step
    try:
        out = np.asarray(engine.body_swap(garment, model, None, progress))
    finally:
        engine.batcher.runner = real
    model_rgb = to_array(model)
    assert out.shape == model_rgb.shape  # the model photo's frame, from the 48x72 native one
    region = garment_region(garment, model_rgb)
    assert np.array_equal(out[~region], model_rgb[~region])
    assert (out[region] != model_rgb[region]).any(axis=1).mean() > 0.5
    fractions = [fraction for fraction, _ in stages]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    # One report per sampler step, each higher than the last.
    steps = [(f, s) for f, s in stages if s.startswith("denoising, step") and " 0 of" not in s]
    assert [s for _, s in steps] == [f"denoising, step {i} of {STEPS}"
                                     for i in range(1, STEPS + 1)]
    assert len({f for f, _ in steps}) == STEPS


def test_the_same_request_gives_the_same_image(engine: DiffusionEngine) -> None:
    garment, model = photo("garments", 1), photo("catalog-models", 1)
    first = np.asarray(engine.body_swap(garment, model, None))
    assert np.array_equal(first, np.asarray(engine.body_swap(garment, model, None)))
    other = np.asarray(engine.body_swap(photo("garments", 2), model, None))
    assert not np.array_equal(first, other)


def test_a_dressed_persons_outfit_on_the_digital_model(engine: DiffusionEngine) -> None:
    person, model = photo("people", 1), photo("catalog-models", 2)
    out = np.asarray(engine.body_swap(person, model, None))
    model_rgb = to_array(model)
    assert out.shape == model_rgb.shape
    region = masks.tryon_mask(digital_model(model_rgb), masks.OUTFIT)
    assert np.array_equal(out[~region], model_rgb[~region])
    assert (out[region] != model_rgb[region]).any(axis=1).mean() > 0.5


def test_try_on_jobs_share_a_batch_and_match_their_single_runs(engine: DiffusionEngine) -> None:
    """Two model swaps submitted together are sampled as one batch of the try-on kind; each
    image is what it is alone (its own seed's noise, whatever shares the batch)."""
    model = to_array(photo("catalog-models", 3))
    size = engine.models.fashn.size if engine.models.fashn else (0, 0)

    def job(garment: Image8, seed: int) -> Job:
        inputs = fashn.job_inputs(model, None, garment, None, "top")
        return Job((fashn.OPERATION, *size, STEPS), {"inputs": inputs,
                                                     "operation": fashn.OPERATION},
                   seed=seed, steps=STEPS)

    garments = [to_array(photo("garments", index)) for index in (3, 4)]
    alone = [wait(engine.batcher.submit(job(g, 7 + i)), lambda _s: None)
             for i, g in enumerate(garments)]
    before = len(engine.batcher.stats.sizes)
    jobs = [engine.batcher.submit(job(g, 7 + i)) for i, g in enumerate(garments)]
    together = [wait(j, lambda _s: None) for j in jobs]
    assert engine.batcher.stats.sizes[before:] == [2]
    for single, batched in zip(alone, together, strict=True):
        assert batched.shape == (TINY.height, TINY.width, 3)
        assert np.abs(batched.astype(int) - single).max() <= 1
    assert not np.array_equal(together[0], together[1])


class Stop(Exception):
    """What a cancelled activity raises into its thread (Temporal's CancelledError, here ours)."""


def test_cancel_stops_the_sampler_mid_sample(engine: DiffusionEngine) -> None:
    real = engine.batcher.runner
    reached: list[int] = []
    seen_cancel = threading.Event()
    cancelled_jobs: list[Job] = []

    def held(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        # After step 2 the GPU thread waits for the caller's cancel to arrive (a real GPU's
        # steps take long enough for it; the tiny model's take milliseconds).
        def step(index: int) -> None:
            reached.append(index)
            on_step(index)  # raises JobCancelled once the job is cancelled
            if index == 2:
                seen_cancel.wait(10)

        cancelled_jobs.extend(jobs)
        return real(jobs, step)

    engine.batcher.runner = held
    images_before = engine.batcher.stats.images

    def progress(fraction: float, stage: str) -> None:
        if stage.startswith("denoising, step 2"):
            raise Stop("cancelled")

    try:
        with pytest.raises(Stop):
            engine.body_swap(photo("garments", 4), photo("catalog-models"), None, progress)
        assert cancelled_jobs and all(job.cancelled.is_set() for job in cancelled_jobs)
        seen_cancel.set()
        for job in cancelled_jobs:  # the batch gave up: nothing was delivered
            assert job.future.cancelled()
    finally:
        seen_cancel.set()
        engine.batcher.runner = real
    engine.body_swap(photo("garments"), photo("catalog-models"), None)  # the thread goes on
    # The sampler found the job cancelled before step 3: steps 3 and 4 never ran.
    assert reached == [1, 2] and STEPS == 4
    assert engine.batcher.stats.images == images_before + 1  # only the later try-on counted


def gate_scores(records: list[logging.LogRecord]) -> list[dict[str, Any]]:
    return [getattr(record, "gate") for record in records if hasattr(record, "gate")]  # noqa: B009


def test_the_gate_refuses_the_noise_after_one_other_seed(
    tiny: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The tiny weights' try-on is noise: sampled twice (another seed the second time), refused
    both times, and the call fails as not retryable (the workflow refunds it)."""
    engine = engine_for(tiny, gate="enforce")
    real = engine.batcher.runner
    seeds: list[int] = []

    def counting(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        seeds.extend(job.seed for job in jobs)
        return real(jobs, on_step)

    engine.batcher.runner = counting
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    try:
        with pytest.raises(gate.ArtefactRefused) as refused:
            engine.body_swap(photo("garments"), photo("catalog-models"), None)
    finally:
        engine.close()
    assert isinstance(refused.value, EngineError) and not refused.value.retryable
    assert str(refused.value).endswith("your credits were returned.")
    assert len(seeds) == 2 and seeds[0] != seeds[1]
    scores = gate_scores(caplog.records)
    print("\nFASHN try-on on the tiny weights (48x72 native frame): " + "; ".join(
        f"smoothness {s['smoothness']:.3f} channel agreement {s['channel_agreement']:.3f} "
        f"contrast {s['contrast']:.1f}" for s in scores))
    assert [(s["operation"], s["attempt"]) for s in scores] == [
        (fashn.OPERATION, 1), (fashn.OPERATION, 2)]
    for s in scores:  # refused by two scores of three, each with a wide margin
        assert s["failures"] == ["noise", "colour_speckle"]
        assert s["smoothness"] < gate.MIN_SMOOTHNESS - 0.3
        assert s["channel_agreement"] < gate.MIN_CHANNEL_AGREEMENT - 0.1


def test_a_pose_is_drawn_at_the_photos_size_and_a_flat_lay_has_none(
    engine: DiffusionEngine,
) -> None:
    """The engine's poses come from DWPose (its tiny twin here), drawn as the grey skeleton at
    the photo's own size; a garment photo's pose is blank."""
    assert isinstance(engine.pose_source, DWPoseSource)
    rgb = to_array(photo("people"))
    pose = engine.pose_source(rgb, None)
    assert pose is not None and pose.body.shape == (18, 2)
    drawn = fashn.pose_image(pose, rgb.shape)
    assert drawn.shape == rgb.shape[:2] and drawn.dtype == np.uint8
    assert not fashn.pose_image(None, rgb.shape).any()
