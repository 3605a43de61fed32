"""Our FASHN VTON v1.5 try-on model (engine/diffusion/fashn) on the tiny random-weight set: the
file `python -m ops.weights tiny` writes loads through the same checked loader as the published
one, runs, samples reproducibly, reports and stops; a bad key stops the load naming it. The full
size is checked by counting its parameters on the meta device (nothing allocated)."""

from __future__ import annotations

import json
import math
import shutil
from dataclasses import asdict, replace
from pathlib import Path

import pytest
import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file

from engine.diffusion.batching import JobCancelled
from engine.diffusion.engine import DiffusionEngine
from engine.diffusion.fashn.config import CATEGORIES, FULL, TINY
from engine.diffusion.fashn.loading import (
    CONFIG_KEY,
    TryOnWeightsError,
    inspect_tryon,
    load_tryon,
)
from engine.diffusion.fashn.model import Conditions, TryOnMMDiT, parameter_count
from engine.diffusion.fashn.sampler import SamplerSettings, sample, time_grid
from engine.diffusion.settings import DiffusionSettings
from engine.diffusion.weights import FASHN_WEIGHTS, MANIFEST, WeightsError, write_manifest
from ops.weights import build_tiny

STEPS = 4


@pytest.fixture(scope="module")
def weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The try-on file of a freshly written tiny set."""
    root = tmp_path_factory.mktemp("weights") / "tiny"
    build_tiny(root)
    return root / FASHN_WEIGHTS


@pytest.fixture(scope="module")
def model(weights: Path) -> TryOnMMDiT:
    return load_tryon(weights)


def conditions(batch: int, height: int, width: int, seed: int = 1) -> Conditions:
    generator = torch.Generator().manual_seed(seed)

    def image(channels: int) -> torch.Tensor:
        return torch.rand(batch, channels, height, width, generator=generator) * 2 - 1

    return Conditions(person=image(3), person_pose=image(1), garment=image(3),
                      garment_pose=image(1),
                      category=torch.full((batch,), CATEGORIES["tops"], dtype=torch.long))


def test_the_full_config_is_the_published_972m_model() -> None:
    # 8 double blocks of 59.0M, 16 + 4 single blocks of 24.6M, embedders and the last layer:
    # the count the model card gives (972M), from the module tree the checkpoint is keyed by.
    assert parameter_count(FULL) == 971_813_808
    assert (FULL.hidden, FULL.heads, FULL.head_dim, FULL.patch) == (1280, 10, 128, 12)
    assert FULL.grid == (72, 48) and 2 * FULL.tokens_per_image == 6912
    assert parameter_count(TINY) < 1_000_000


def test_the_tiny_set_holds_the_tryon_model_under_its_licence(weights: Path) -> None:
    manifest = json.loads((weights.parent.parent / MANIFEST).read_text("utf-8"))
    entry = next(e for e in manifest["files"] if e["path"] == FASHN_WEIGHTS)
    assert (entry["licence"], entry["commercial"]) == ("Apache-2.0", True)
    assert entry["source"].endswith("fashn-ai/fashn-vton-1.5:model.safetensors")
    with safe_open(str(weights), framework="pt") as handle:
        assert json.loads(handle.metadata()[CONFIG_KEY]) == json.loads(json.dumps(asdict(TINY)))
        keys = set(handle.keys())  # noqa: SIM118 - safe_open has no __iter__
    # The full model's key layout: with one block of each kind, the same keys.
    with torch.device("meta"):
        full = set(TryOnMMDiT(FULL).state_dict())
        shallow = set(TryOnMMDiT(replace(FULL, double_depth=1, single_depth=1,
                                         mixer_depth=1)).state_dict())
    assert len(full) == 366 and keys == shallow and keys < full


def test_one_forward_pass_gives_an_image_of_the_input_size(model: TryOnMMDiT) -> None:
    assert model.config == TINY and not model.training
    for height, width in ((TINY.height, TINY.width), (FULL.height, FULL.width)):
        noisy = torch.randn(2, 3, height, width)
        with torch.inference_mode():
            velocity = model(noisy, torch.tensor([0.1, 0.7]), conditions(2, height, width))
        assert velocity.shape == (2, 3, height, width)
        assert torch.isfinite(velocity).all() and velocity.std() > 0.01
        # Each sample follows its own time: the two halves of the batch differ.
        assert not torch.allclose(velocity[0], velocity[1])


def test_a_size_off_the_patch_grid_is_refused(model: TryOnMMDiT) -> None:
    with pytest.raises(ValueError, match="12x12 patches"):
        model(torch.zeros(1, 3, 70, 48), torch.zeros(1), conditions(1, 70, 48))


def test_the_time_grid_runs_from_noise_to_image_slowly_at_first() -> None:
    grid = time_grid(30, 1.5)
    assert len(grid) == 31 and grid[0] == 0.0 and grid[-1] == 1.0
    steps = [b - a for a, b in zip(grid[:-1], grid[1:], strict=True)]
    assert all(step > 0 for step in steps) and steps[0] < steps[-1] / 10
    squeeze = math.exp(-1.5)  # halfway in u: s / (s + 1)
    assert time_grid(2, 1.5)[1] == pytest.approx(squeeze / (squeeze + 1))


def test_the_same_seed_gives_the_same_image(model: TryOnMMDiT) -> None:
    inputs = conditions(1, TINY.height, TINY.width)
    settings = SamplerSettings(steps=STEPS)
    first = sample(model, inputs, seeds=[7], settings=settings)
    assert first.shape == (1, 3, TINY.height, TINY.width)
    assert first.min() >= -1 and first.max() <= 1
    assert torch.equal(first, sample(model, inputs, seeds=[7], settings=settings))
    assert not torch.equal(first, sample(model, inputs, seeds=[8], settings=settings))
    # Guidance is applied: without it (1.0) the same seed gives another image.
    plain = sample(model, inputs, seeds=[7], settings=SamplerSettings(steps=STEPS, guidance=1.0))
    assert not torch.equal(first, plain)


def test_progress_rises_once_per_step(model: TryOnMMDiT) -> None:
    seen: list[int] = []
    sample(model, conditions(1, TINY.height, TINY.width), seeds=[3],
           settings=SamplerSettings(steps=STEPS), on_step=seen.append)
    assert seen == list(range(1, STEPS + 1))


def test_cancel_stops_between_steps(model: TryOnMMDiT) -> None:
    seen: list[int] = []
    with pytest.raises(JobCancelled):
        sample(model, conditions(1, TINY.height, TINY.width), seeds=[3],
               settings=SamplerSettings(steps=STEPS), on_step=seen.append,
               cancelled=lambda: len(seen) >= 2)
    assert seen == [1, 2]


def test_a_bf16_file_loads_into_float32(weights: Path, model: TryOnMMDiT,
                                        tmp_path: Path) -> None:
    # The published file is bf16; the loader casts to the worker's dtype.
    with safe_open(str(weights), framework="pt") as handle:
        metadata = handle.metadata()
    state = {key: value.to(torch.bfloat16) for key, value in load_file(weights).items()}
    path = tmp_path / "model.safetensors"
    save_file(state, str(path), metadata=metadata)
    loaded = load_tryon(path, dtype=torch.float32)
    key = "double_blocks.0.img_attn.qkv.weight"
    assert loaded.state_dict()[key].dtype == torch.float32
    assert torch.equal(loaded.state_dict()[key], state[key].float())
    assert not torch.equal(loaded.state_dict()[key], model.state_dict()[key])  # really rounded


def damaged(weights: Path, tmp_path: Path, change: dict[str, torch.Tensor | None]) -> Path:
    """A copy of the tiny file with keys removed (None) or replaced."""
    with safe_open(str(weights), framework="pt") as handle:
        metadata = handle.metadata()
    state = load_file(weights)
    for key, value in change.items():
        if value is None:
            del state[key]
        else:
            state[key] = value
    path = tmp_path / "model.safetensors"
    save_file(state, str(path), metadata=metadata)
    return path


def test_a_missing_key_stops_the_load_naming_it(weights: Path, tmp_path: Path) -> None:
    key = "single_blocks.0.norm.key_norm.scale"
    with pytest.raises(TryOnWeightsError, match=f"missing: {key}") as raised:
        load_tryon(damaged(weights, tmp_path, {key: None}))
    assert isinstance(raised.value, WeightsError)  # what stops the worker at start


def test_a_misshapen_key_stops_the_load_naming_it_and_both_shapes(weights: Path,
                                                                  tmp_path: Path) -> None:
    key = "final_layer.linear.weight"  # (3 * 12 * 12, hidden)
    bad = torch.zeros(3 * 8 * 8, TINY.hidden)
    with pytest.raises(TryOnWeightsError,
                       match=rf"misshapen: {key} is \[192, 48\], not \[432, 48\]"):
        load_tryon(damaged(weights, tmp_path, {key: bad}))


def test_an_unexpected_key_and_a_missing_file_are_named(weights: Path, tmp_path: Path) -> None:
    with pytest.raises(TryOnWeightsError, match="unexpected: guidance_embedder.mlp.in_layer"):
        load_tryon(damaged(weights, tmp_path,
                           {"guidance_embedder.mlp.in_layer.weight": torch.zeros(2, 2)}))
    with pytest.raises(TryOnWeightsError, match="is missing"):
        load_tryon(tmp_path / "absent.safetensors")
    broken = tmp_path / "broken.safetensors"
    shutil.copyfile(weights, broken)
    broken.write_bytes(broken.read_bytes()[:100])
    with pytest.raises(TryOnWeightsError, match="cannot be read"):
        load_tryon(broken)


def test_a_tryon_file_that_does_not_fit_stops_the_engine_at_start(weights: Path,
                                                                   tmp_path: Path) -> None:
    # A consistent manifest over a wrong file (another model's, another version's): the sha256
    # check passes, the header check at start does not.
    root = Path(shutil.copytree(weights.parent.parent, tmp_path / "weights"))
    key = "double_blocks.0.txt_attn.proj.bias"
    bad = damaged(weights, tmp_path, {key: None})
    shutil.copyfile(bad, root / FASHN_WEIGHTS)
    write_manifest(root, tiny=True)
    assert inspect_tryon(weights) == TINY  # the intact file passes the same check
    with pytest.raises(WeightsError, match=f"fashn/model.safetensors does not fit the try-on "
                                           f"model: missing: {key}"):
        DiffusionEngine(DiffusionSettings(root, size=(48, 64), steps=2))
