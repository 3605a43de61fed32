"""FASHN's sampler measured setting by setting (issue 35 section 4): TryOnRunner.run on the same
inputs and seeds (conditioning in, images out: the GPU thread's whole share of a try-on), at
batch 1 and at each batch size, with the sampler's FLOPs, the share of the device's dense bf16
peak, the peak memory, and how far each setting's image moves from the reference's.

The inputs are made here (random photos and a drawn skeleton at the model's native size, from a
fixed seed): what they show does not change the arithmetic, and the GPU box needs no photos.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import torch

from engine.arrays import Image8
from engine.diffusion.fashn.options import NeedsCuda
from engine.diffusion.fashn.runner import TryOnInputs, TryOnRunner
from ops.engine_bench.common import percentile
from ops.engine_bench.peaks import achieved, share_of_peak
from ops.engine_bench.settings import Setting

SEED = 20_261_128
NEEDS_CUDA = "needs a CUDA device"


def bench_inputs(size: tuple[int, int], count: int) -> list[TryOnInputs]:
    """`count` try-ons at `size` (width, height): random person and garment photos, a stick
    figure for the person's pose, a flat-lay (no garment pose), category tops."""
    width, height = size
    rng = np.random.default_rng(SEED)
    items = []
    for _ in range(count):
        pose = np.zeros((height, width), np.uint8)
        for (x0, y0), (x1, y1), grey in (((0.5, 0.15), (0.5, 0.5), 200),
                                         ((0.3, 0.3), (0.7, 0.3), 150),
                                         ((0.5, 0.5), (0.4, 0.9), 100)):
            cv2.line(pose, (int(x0 * width), int(y0 * height)),
                     (int(x1 * width), int(y1 * height)), (grey,), max(2, width // 60))
        person = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
        garment = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
        items.append(TryOnInputs(person, pose, garment, None, "tops"))
    return items


def distance(image: Image8, reference: Image8) -> dict[str, Any]:
    """Mean absolute difference (grey levels, 0-255) and PSNR (dB) against the reference."""
    difference = image.astype(np.float64) - reference.astype(np.float64)
    mse = float(np.mean(difference**2))
    return {"mean_abs_diff": round(float(np.mean(np.abs(difference))), 4),
            "psnr_db": None if mse == 0 else round(10 * math.log10(255.0**2 / mse), 3),
            "identical": mse == 0}


def pick(device: str, dtype: str) -> tuple[torch.device, torch.dtype]:
    """As the engine picks them (pipelines.pick_device and pick_dtype: that module needs
    diffusers, which the sampler's bench does not): CUDA and bf16 where there is a GPU."""
    chosen = torch.device(("cuda" if torch.cuda.is_available() else "cpu")
                          if device == "auto" else device)
    if dtype == "auto":
        return chosen, torch.bfloat16 if chosen.type == "cuda" else torch.float32
    return chosen, {"float32": torch.float32, "float16": torch.float16,
                    "bfloat16": torch.bfloat16}[dtype]


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed(runner: TryOnRunner, setting: Setting, inputs: list[TryOnInputs]) -> float:
    """Seconds for one batch through runner.run (the device drained before and after)."""
    device = runner.model.final_layer.linear.weight.device
    sync(device)
    started = time.perf_counter()
    runner.run(inputs, [SEED + index for index in range(len(inputs))], setting.sampler)
    sync(device)
    return time.perf_counter() - started


def runner_for(base: TryOnRunner, setting: Setting, weights: Path) -> TryOnRunner:
    """The reference's runner for settings that only choose kernels at run time; a fresh copy of
    the model for those that convert or compile it. Raises NeedsCuda where it cannot run."""
    if not setting.transforms_model:
        return TryOnRunner(base.model, setting.options)
    weight = base.model.final_layer.linear.weight
    setting.options.check(weight.device)  # before loading a second copy
    return TryOnRunner.from_file(weights, weight.device, weight.dtype, setting.options)


def cudagraph_skips() -> int | None:
    """How often inductor fell back from CUDA graphs (e.g. an op on the CPU inside the model):
    None where this torch does not count it."""
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return None
    return int(sum(counters["inductor"].get(key, 0) for key in counters["inductor"]
                   if "cudagraph_skip" in key))


def measure_setting(base: TryOnRunner, setting: Setting, weights: Path, batches: list[int],
                    latency_runs: int, repeats: int, peak: float | None,
                    reference: Image8 | None, compile_limit: float) -> dict[str, Any]:
    """One setting's figures (see the module's docstring), or why it was not measured."""
    config = base.model.config
    sampler = setting.sampler
    result: dict[str, Any] = {
        "name": setting.name, "what": setting.what, "group": setting.group,
        "steps": sampler.steps, "guided_steps": sampler.guided_steps,
        "model_passes": sampler.model_passes,
        "flops_per_image": setting.flops_per_image(config),
        "attention": setting.options.attention, "compile": setting.options.compile,
        "cuda_graphs": setting.options.cuda_graphs, "fp8": setting.options.fp8,
    }
    try:
        runner = runner_for(base, setting, weights)
    except NeedsCuda as error:
        return {**result, "status": NEEDS_CUDA, "reason": str(error)}
    except Exception as error:  # noqa: BLE001 - reported (e.g. torchao missing), others go on
        return {**result, "status": "failed", "reason": f"{type(error).__name__}: {error}"[:300]}
    device = base.model.final_layer.linear.weight.device
    inputs = bench_inputs(runner.size, max(batches))
    figures: dict[str, Any] = {}
    try:
        for batch in batches:
            if device.type == "cuda":
                torch.cuda.reset_peak_memory_stats(device)
            # The first call at a batch size picks kernels (and compiles, for the compiled
            # settings: its time is the compile time, reported against the bound).
            first = timed(runner, setting, inputs[:batch])
            count = latency_runs if batch == 1 else repeats
            runs = [timed(runner, setting, inputs[:batch]) for _ in range(count)]
            per_image = [run / batch for run in runs]
            median = statistics.median(runs)
            flops = setting.flops_per_image(config) * batch
            figures[str(batch)] = {
                "per_image_p50": round(percentile(per_image, 0.50), 4),
                "per_image_p90": round(percentile(per_image, 0.90), 4),
                "runs": [round(run, 4) for run in runs],
                "first_call_seconds": round(first, 3),
                "flops_per_second": achieved(flops, median),
                "share_of_peak": share_of_peak(flops, median, peak),
                "peak_memory_gb": (round(torch.cuda.max_memory_allocated(device) / 1e9, 3)
                                   if device.type == "cuda" else None),
            }
            print(f"  {setting.name:28} batch {batch}: {figures[str(batch)]['per_image_p50']:.3f}"
                  f" s/image (first call {first:.1f} s)", flush=True)
        [output] = runner.run(inputs[:1], [SEED], sampler)
        against = "the reference"
        if reference is None:  # the reference itself (or none ran): its own image twice
            reference, against = runner.run(inputs[:1], [SEED], sampler)[0].frame, "itself"
    except Exception as error:  # noqa: BLE001 - e.g. no such attention kernel on this device
        return {**result, "status": "failed", "reason": f"{type(error).__name__}: {error}"[:300],
                "batches": figures}
    finally:
        if runner is not base and runner.model is not base.model:
            del runner
            gc.collect()
            if device.type == "cuda":
                torch.cuda.empty_cache()
    first_calls = [figure["first_call_seconds"] for figure in figures.values()]
    best = min(figures, key=lambda b: figures[b]["per_image_p50"])
    result.update(status="measured", batches=figures, best_batch=int(best),
                  output_vs_reference={**distance(output.frame, reference), "against": against},
                  frame=output.frame)
    if setting.transforms_model:
        # Its own copy of the model sat beside the reference's: the peak counts both.
        result["peak_memory_includes_the_reference_copy"] = True
        result["compile_seconds_max"] = max(first_calls)
        result["compile_within_bound"] = max(first_calls) <= compile_limit
    if setting.options.cuda_graphs:
        result["cudagraph_skips"] = cudagraph_skips()
    return result


def with_speedups(results: list[dict[str, Any]]) -> None:
    """Each measured setting's speed against the reference's: at batch 1 and at the best batch
    of each (p50 per image; > 1 is faster)."""
    reference = results[0]
    if reference.get("status") != "measured":
        return
    ref = reference["batches"]
    ref_best = ref[str(reference["best_batch"])]["per_image_p50"]
    for result in results:
        if result.get("status") != "measured":
            continue
        own = result["batches"]
        result["speedup_at_batch_1"] = round(ref["1"]["per_image_p50"]
                                             / own["1"]["per_image_p50"], 3) if "1" in own else None
        result["speedup_at_best_batch"] = round(
            ref_best / own[str(result["best_batch"])]["per_image_p50"], 3)


def bench_sampler(weights: Path, device: str, dtype: str, settings: list[Setting],
                  batches: tuple[list[int], list[int]], latency_runs: int, repeats: int,
                  peak: float | None, compile_limit: float,
                  on_result: Callable[[list[dict[str, Any]]], None] | None = None,
                  ) -> tuple[TryOnRunner, list[dict[str, Any]]]:
    """Every setting's figures, the reference's first (at the first list of batch sizes, the
    others at the second); returns the base runner too (its model stays loaded for the
    caller's report). `on_result` gets the list so far after each setting (a run stopped by a
    time limit keeps what it measured)."""
    torch_device, torch_dtype = pick(device, dtype)
    base = TryOnRunner.from_file(weights, torch_device, torch_dtype)
    results: list[dict[str, Any]] = []
    reference: Image8 | None = None
    for setting in settings:
        print(f"setting {setting.name}: {setting.what}", flush=True)
        sizes = batches[0] if setting.name == "reference" else batches[1]
        result = measure_setting(base, setting, weights, sizes, latency_runs, repeats, peak,
                                 reference, compile_limit)
        frame = result.pop("frame", None)
        if setting.name == "reference":
            reference = frame
        if result["status"] != "measured":
            print(f"  {setting.name}: {result['status']} ({result['reason']})", flush=True)
        results.append(result)
        if on_result is not None:
            on_result(results)
    with_speedups(results)
    return base, results


__all__ = ["NEEDS_CUDA", "bench_inputs", "bench_sampler", "distance"]
