"""The generative engine itself, in the imaging environment (.venv-imaging: torch, diffusers) on
the tiny random-weight models: `make test` runs this folder with that environment's Python
(tests/conftest.py leaves it out of the main run, which has no torch).

Here the outputs are compared before any JPEG encoding, so "unchanged" means byte for byte."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from PIL import Image
from safetensors.torch import load_file, save_file

from core.engine import Background, EngineError, EngineUnavailable
from core.photos.images import decode_rgb
from engine import compose
from engine.analysis import find_subject
from engine.cpu import to_array
from engine.diffusion import gate, masks
from engine.diffusion.batching import Job, OutOfMemory
from engine.diffusion.engine import DiffusionEngine
from engine.diffusion.pipelines import Models, attention_modules, load_attention
from engine.diffusion.settings import DiffusionSettings
from engine.diffusion.weights import CATVTON, WeightsError, required_files
from engine.digital_model import digital_model
from engine.swap_garment import classify_garment
from ops.weights import build_tiny
from tests.support.paths import fixture_images

SIZE = (48, 64)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("weights") / "tiny"
    build_tiny(root)
    return root


def engine_for(weights: Path, **options: Any) -> DiffusionEngine:
    """An engine on the tiny set. Random weights make noise, which the artefact gate refuses:
    unless a test asks for "enforce", the gate scores but lets it through (what these tests
    check is where the pixels go, not what they look like)."""
    options.setdefault("gate", "pass")
    options.setdefault("tryon", "catvton")  # this module is CatVTON's; FASHN's: test_fashn_engine
    return DiffusionEngine(DiffusionSettings(weights, size=SIZE, steps=options.pop("steps", 6),
                                             **options))


@pytest.fixture(scope="module")
def engine(tiny: Path) -> Iterator[DiffusionEngine]:
    made = engine_for(tiny, batch_window=0.3)
    made.warm_up()
    yield made
    made.close()


def photo(folder: str, index: int = 0) -> Image.Image:
    return decode_rgb(fixture_images(folder)[index].read_bytes())


def test_the_models_load_once_with_a_report(engine: DiffusionEngine) -> None:
    report = engine.load_report()
    assert report["engine"] == "diffusion" and report["device"] == "cpu"
    assert report["dtype"] == "float32" and report["parameters"] > 1_000_000
    assert report["memory_bytes"] > 0 and report["warm_up_seconds"] > 0
    # What this CatVTON worker loads: CatVTON's and the relight's 12 files and the tiny
    # tokenizer's tokenizer.json beside them, not FASHN's or DWPose's.
    assert engine.files_checked == len(required_files(CATVTON)) + 1 == 13


def test_a_try_on_changes_nothing_outside_the_garment_region(engine: DiffusionEngine) -> None:
    garment, model = photo("garments"), photo("catalog-models")
    steps: list[float] = []
    out = np.asarray(engine.body_swap(garment, model, None, lambda f, _s: steps.append(f)))
    model_rgb = to_array(model)
    assert out.shape == model_rgb.shape
    cut = find_subject(to_array(garment)).cutout
    region = masks.tryon_mask(digital_model(model_rgb), classify_garment(cut.alpha).kind)
    assert np.array_equal(out[~region], model_rgb[~region])
    assert (out[region] != model_rgb[region]).any(axis=1).mean() > 0.5
    assert steps == sorted(steps) and steps[-1] == 1.0


def test_the_same_request_gives_the_same_image_and_the_seed_matters(
    engine: DiffusionEngine, tiny: Path
) -> None:
    garment, model = photo("garments", 1), photo("catalog-models", 1)
    first = np.asarray(engine.body_swap(garment, model, None))
    assert np.array_equal(first, np.asarray(engine.body_swap(garment, model, None)))
    other = engine_for(tiny, seed=1)
    try:
        assert not np.array_equal(first, np.asarray(other.body_swap(garment, model, None)))
    finally:
        other.close()


def test_a_relit_composite_keeps_the_scene_outside_the_subject(engine: DiffusionEngine) -> None:
    person, scene = photo("people"), photo("scenes")
    rgb = to_array(person)
    cut = find_subject(rgb).cutout
    relit, placed = engine.relit(cut, np.asarray(scene), None, seed=5)
    base = compose.over(placed.canvas, placed.rgb, placed.alpha, placed.shadow)
    outside = placed.alpha == 0
    assert relit.shape == base.shape and outside.mean() > 0.3
    assert np.array_equal(relit[outside], base[outside])
    solid = placed.alpha > 0.99
    assert (relit[solid] != base[solid]).any(axis=1).mean() > 0.5
    # Through the interface too, at the photo's frame.
    out = engine.replace_background(person, Background.photo(scene))
    assert out.size == person.size


def test_white_and_transparent_backgrounds_are_composited_not_relit(
    engine: DiffusionEngine,
) -> None:
    person = photo("people", 1)
    transparent = engine.replace_background(person, Background.builtin("transparent"))
    assert transparent.mode == "RGBA" and transparent.size == person.size
    white = np.asarray(engine.replace_background(person, Background.builtin("white")))
    assert (white == 255).all(axis=2).mean() > 0.3  # pure white around the subject


def test_concurrent_requests_share_a_batch_and_match_their_single_runs(
    engine: DiffusionEngine,
) -> None:
    garment, model = photo("garments", 2), photo("catalog-models", 2)
    alone = np.asarray(engine.body_swap(garment, model, None))
    before = len(engine.batcher.stats.sizes)
    person = photo("people", 2)
    with ThreadPoolExecutor(2) as pool:
        swap = pool.submit(engine.body_swap, garment, model, None)
        other = pool.submit(engine.body_swap, person, model, None)
        together = np.asarray(swap.result())
        other.result()
    assert 2 in engine.batcher.stats.sizes[before:]
    assert np.abs(together.astype(int) - alone).max() <= 1


def test_out_of_memory_is_retryable_and_the_retry_runs_smaller(tiny: Path) -> None:
    engine = engine_for(tiny, batch_window=0.5, max_batch=4)
    real = engine.batcher.runner
    sizes: list[int] = []
    lock = threading.Lock()

    def small_gpu(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        with lock:
            sizes.append(len(jobs))
        if len(jobs) > 1:  # this "GPU" holds one image at a time
            raise OutOfMemory("CUDA out of memory. Tried to allocate 2.00 GiB")
        return real(jobs, on_step)

    engine.batcher.runner = small_gpu
    garment, person, model = photo("garments"), photo("people"), photo("catalog-models")

    def both() -> list[BaseException | None]:
        def one(source: Image.Image) -> BaseException | None:
            try:
                engine.body_swap(source, model, None)
            except EngineUnavailable as error:
                return error
            return None

        with ThreadPoolExecutor(2) as pool:
            return list(pool.map(one, [garment, person]))

    try:
        failed = both()
        assert all(isinstance(e, EngineUnavailable) and e.retryable for e in failed), failed
        assert engine.batcher.max_batch == 1
        assert both() == [None, None]  # the retries, one image per batch
    finally:
        engine.close()
    assert sizes[0] == 2 and sizes[1:] == [1, 1]


def test_the_try_on_checkpoint_must_cover_every_self_attention(tiny: Path, tmp_path: Path) -> None:
    models = Models(tiny, tryon="catvton")
    assert models.tryon_unet is not None
    state = load_file(str(tiny / "tryon/attention/model.safetensors"))
    assert load_attention(models.tryon_unet, tiny / "tryon/attention/model.safetensors") == len(
        state)
    # CatVTON's layout: the ModuleList of every "attn1" module, each shared tensor named once.
    assert set(state) <= set(attention_modules(models.tryon_unet).state_dict())
    short = dict(state)
    short.pop(next(key for key in short if key.endswith("to_q.weight")))
    save_file(short, str(tmp_path / "short.safetensors"))
    with pytest.raises(WeightsError, match="lacks self-attention weights"):
        load_attention(models.tryon_unet, tmp_path / "short.safetensors")
    extra = {**state, "99.to_q.weight": torch.zeros(2, 2)}
    save_file(extra, str(tmp_path / "extra.safetensors"))
    with pytest.raises(WeightsError, match="does not have"):
        load_attention(models.tryon_unet, tmp_path / "extra.safetensors")


def gate_scores(records: list[logging.LogRecord]) -> list[dict[str, Any]]:
    return [record.gate for record in records if hasattr(record, "gate")]  # type: ignore[attr-defined]


@pytest.mark.parametrize("operation", ["tryon", "relight"])
def test_noise_from_random_weights_is_refused_after_one_other_seed(
    tiny: Path, operation: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 35: the tiny random weights' images are noise. Each is sampled twice (the second
    time with another seed), refused both times by the gate, and the call fails as not
    retryable (the workflow refunds it) with a reason in plain words."""
    engine = engine_for(tiny, gate="enforce")
    real = engine.batcher.runner
    seeds: list[int] = []

    def counting(jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Any]:
        seeds.extend(job.seed for job in jobs)
        return real(jobs, on_step)

    engine.batcher.runner = counting
    stages: list[tuple[float, str]] = []
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    try:
        with pytest.raises(gate.ArtefactRefused) as refused:
            if operation == "tryon":
                engine.body_swap(photo("garments"), photo("catalog-models"), None,
                                 lambda f, s: stages.append((f, s)))
            else:
                engine.replace_background(photo("people"), Background.photo(photo("scenes")),
                                          lambda f, s: stages.append((f, s)))
    finally:
        engine.close()
    assert isinstance(refused.value, EngineError) and not refused.value.retryable
    assert str(refused.value).startswith("We could not make a usable image (the generated "
                                         "picture came out as noise)")
    assert str(refused.value).endswith("your credits were returned.")
    assert len(seeds) == 2 and seeds[0] != seeds[1], seeds  # exactly one retry, another seed
    fractions = [fraction for fraction, _ in stages]
    assert fractions == sorted(fractions)  # the second sample does not move the bar back
    assert any(stage.startswith("denoising again with another seed") for _, stage in stages)

    scores = gate_scores(caplog.records)
    print(f"\n{operation} on the tiny weights: " + "; ".join(
        f"smoothness {s['smoothness']:.3f} channel agreement {s['channel_agreement']:.3f} "
        f"contrast {s['contrast']:.1f}" for s in scores))
    assert [(s["operation"], s["attempt"], s["seed"]) for s in scores] == [
        (operation, 1, seeds[0]), (operation, 2, seeds[1])]
    for s in scores:  # refused by two scores of three, each with a margin
        assert s["failures"] == ["noise", "colour_speckle"]
        assert s["smoothness"] < gate.MIN_SMOOTHNESS - 0.05
        assert s["channel_agreement"] < gate.MIN_CHANNEL_AGREEMENT - 0.1


def test_with_the_gate_told_to_pass_the_noise_is_scored_and_delivered(
    engine: DiffusionEngine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    out = engine.body_swap(photo("garments", 3), photo("catalog-models", 3), None)
    assert out.size == photo("catalog-models", 3).size
    (scored,) = gate_scores(caplog.records)
    assert scored["attempt"] == 1 and "noise" in scored["failures"]
