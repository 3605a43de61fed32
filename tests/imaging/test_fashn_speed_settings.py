"""FASHN's speed settings on the CPU (issue 35 section 4): the guidance schedules and fewer steps
(sampler.py), the FLOPs each setting costs, the runner's options (options.py: what the CPU can
run, and "needs a CUDA device" for what it cannot), and the bench's choice and comparison of
settings (ops/engine_bench). Timings are the bench's business, never a test's."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.diffusion.fashn.config import FULL, TINY
from engine.diffusion.fashn.flops import forward_flops, image_flops
from engine.diffusion.fashn.model import TryOnMMDiT
from engine.diffusion.fashn.options import NeedsCuda, RunnerOptions, is_token_wise
from engine.diffusion.fashn.runner import TryOnRunner
from engine.diffusion.fashn.sampler import REFERENCE, SamplerSettings
from ops.engine_bench.fashn import bench_inputs, distance
from ops.engine_bench.settings import BY_NAME, CPU_DEFAULT, SETTINGS, pick


@pytest.fixture(scope="module")
def model() -> TryOnMMDiT:
    torch.manual_seed(3)
    built = TryOnMMDiT(TINY)
    built.eval().requires_grad_(False)
    return built


def passes_seen(model: TryOnMMDiT, settings: SamplerSettings, batch: int = 1) -> list[int]:
    """The batch size of every forward pass the sampler makes (2 x batch on a guided step)."""
    seen: list[int] = []
    hook = model.register_forward_hook(lambda _m, args, _out: seen.append(args[0].shape[0]))
    try:
        TryOnRunner(model).run(bench_inputs((TINY.width, TINY.height), batch),
                               list(range(batch)), settings)
    finally:
        hook.remove()
    return seen


@pytest.mark.parametrize(("settings", "guided"), [
    (REFERENCE, list(range(29))),  # every step but the last
    (SamplerSettings(guided_first=10), list(range(10))),
    (SamplerSettings(guidance_every=2), list(range(0, 29, 2))),
    (SamplerSettings(steps=20), list(range(19))),
    (SamplerSettings(steps=20, guided_first=8), list(range(8))),
    (SamplerSettings(guidance=1.0), []),
    (SamplerSettings(guided_first=0), []),
])
def test_the_guided_steps_are_the_schedule_s(settings: SamplerSettings,
                                             guided: list[int]) -> None:
    assert [i for i in range(settings.steps) if settings.guided(i)] == guided
    assert settings.guided_steps == len(guided)
    assert settings.model_passes == settings.steps + len(guided)


def test_the_sampler_runs_the_model_as_the_schedule_says(model: TryOnMMDiT) -> None:
    for settings in (SamplerSettings(steps=6, guided_first=2),
                     SamplerSettings(steps=6, guidance_every=3), SamplerSettings(steps=4)):
        expected = [4 if settings.guided(i) else 2 for i in range(settings.steps)]
        assert passes_seen(model, settings, batch=2) == expected, settings


def test_guidance_on_no_step_is_the_conditional_velocity_alone(model: TryOnMMDiT) -> None:
    runner = TryOnRunner(model)
    inputs = bench_inputs((TINY.width, TINY.height), 1)
    none = runner.run(inputs, [5], SamplerSettings(steps=4, guided_first=0))[0].frame
    plain = runner.run(inputs, [5], SamplerSettings(steps=4, guidance=1.0))[0].frame
    guided = runner.run(inputs, [5], SamplerSettings(steps=4))[0].frame
    assert np.array_equal(none, plain)
    assert not np.array_equal(none, guided)


def test_bad_schedules_are_refused() -> None:
    with pytest.raises(ValueError, match="guidance_every"):
        SamplerSettings(guidance_every=0)
    with pytest.raises(ValueError, match="negative"):
        SamplerSettings(guided_first=-1)


def test_each_setting_s_flops_are_its_passes_times_one_forward_pass() -> None:
    one = forward_flops(FULL)
    assert BY_NAME["reference"].flops_per_image(FULL) == 59 * one == image_flops(FULL, 30)
    assert BY_NAME["steps-20"].flops_per_image(FULL) == 39 * one
    assert BY_NAME["steps-15"].flops_per_image(FULL) == 29 * one
    assert BY_NAME["guidance-first-10"].flops_per_image(FULL) == 40 * one
    assert BY_NAME["guidance-every-2"].flops_per_image(FULL) == 45 * one
    assert BY_NAME["steps-20-guidance-first-8"].flops_per_image(FULL) == 28 * one
    # What only picks kernels or the number format leaves the count alone.
    for name in ("sdpa-flash", "sdpa-math", "compile", "cuda-graphs", "fp8", "fp8-compile"):
        assert BY_NAME[name].flops_per_image(FULL) == 59 * one, name
    # The reference image: 59 x 13.2 TFLOP = 0.78 PFLOP.
    assert 0.77e15 < BY_NAME["reference"].flops_per_image(FULL) < 0.79e15


def test_gpu_only_options_say_they_need_a_cuda_device(model: TryOnMMDiT) -> None:
    for options in (RunnerOptions(fp8=True), RunnerOptions(cuda_graphs=True),
                    RunnerOptions(fp8=True, compile=True)):
        with pytest.raises(NeedsCuda, match="needs a CUDA device"):
            TryOnRunner(model, options)
    with pytest.raises(ValueError, match="not one of"):
        RunnerOptions(attention="fastest")


def test_the_cpu_s_attention_backends_keep_the_image(model: TryOnMMDiT) -> None:
    inputs = bench_inputs((TINY.width, TINY.height), 1)
    settings = SamplerSettings(steps=3)
    reference = TryOnRunner(model).run(inputs, [9], settings)[0].frame
    for backend in ("math", "flash"):
        frame = TryOnRunner(model, RunnerOptions(attention=backend)).run(
            inputs, [9], settings)[0].frame
        assert np.abs(frame.astype(int) - reference.astype(int)).max() <= 1, backend


def test_fp8_converts_the_token_wise_layers_only(model: TryOnMMDiT) -> None:
    chosen = [name for name, module in model.named_modules() if is_token_wise(module, name)]
    # Per double block: q/k/v, projection, MLP in and out, for each stream; single and mixer
    # blocks: linear1 and linear2.
    assert len(chosen) == TINY.double_depth * 8 + (TINY.single_depth + TINY.mixer_depth) * 2
    assert not [name for name in chosen if "mod" in name or "embedder" in name
                or "final" in name]
    assert all(name.startswith(("double_blocks", "single_blocks", "x_patch_mixer"))
               for name in chosen)


def test_the_bench_picks_settings_reference_first() -> None:
    assert [s.name for s in pick("", on_cuda=True)] == [s.name for s in SETTINGS]
    assert [s.name for s in pick("", on_cuda=False)] == list(CPU_DEFAULT)
    assert [s.name for s in pick("fp8,steps-20", on_cuda=False)] == ["reference", "fp8",
                                                                     "steps-20"]
    with pytest.raises(ValueError, match="unknown setting"):
        pick("turbo", on_cuda=True)


def test_the_distance_from_the_reference() -> None:
    image = np.full((4, 4, 3), 100, np.uint8)
    same = distance(image, image.copy())
    assert same == {"mean_abs_diff": 0.0, "psnr_db": None, "identical": True}
    moved = image.copy()
    moved[0, 0, 0] = 110  # one value of 48 off by 10: MSE 100 / 48
    far = distance(moved, image)
    assert far["mean_abs_diff"] == pytest.approx(10 / 48, abs=1e-4)
    assert far["psnr_db"] == pytest.approx(10 * np.log10(255**2 / (100 / 48)), abs=1e-3)
    assert not far["identical"]
