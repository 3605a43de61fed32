"""FASHN's whole engine call (issue 35 section 4's targets are for it): DiffusionEngine.body_swap
of a garment photo onto a catalog model, as the imaging worker runs it: our analysis and region
masks, DWPose, the try-on sampled at the reference settings (30 steps, guidance 1.5), the output
gate (scored; told to pass, since random weights make noise it would refuse) and the paste-back.

Batch B: B calls at once from B threads, as B concurrent activities on one worker; the engine's
batcher puts their sampling into one batch when they reach it within its window (the batch sizes
it actually ran are reported). Per image: the wall time over B. At batch 1 the batcher keeps the
product's window (DIFFUSION_BATCH_WINDOW's default, a few milliseconds); at B > 1 it waits up to
`window` for the B calls (their analyses finish one after another: the analysis models are
shared behind locks) and starts the batch as soon as all B are in.

It needs the imaging environment (diffusers for the relight models the engine also loads,
mediapipe for our analysis, onnxruntime for DWPose) and the fixture photos; where any is missing
the report says why and the sampler's figures stand alone.
"""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path
from typing import Any

from ops.engine_bench.common import fixtures_dir, percentile

GARMENT = ("garments", "00055_00.jpg")
MODEL = ("catalog-models", "model-1.jpg")


def whole_calls(weights: Path, size: tuple[int, int], device: str, dtype: str,
                batches: list[int], latency_runs: int, repeats: int,
                window: float) -> dict[str, Any]:
    """The figures, or {"error": why} where the call cannot run here. `size` is the engine's
    working size (DIFFUSION_SIZE: the relight's, which the engine warms up at start)."""
    try:
        return _whole_calls(weights, size, device, dtype, batches, latency_runs, repeats, window)
    except Exception as error:  # noqa: BLE001 - reported; the sampler's figures still stand
        return {"error": f"{type(error).__name__}: {error}"[:400]}


def _whole_calls(weights: Path, size: tuple[int, int], device: str, dtype: str,
                 batches: list[int], latency_runs: int, repeats: int,
                 window: float) -> dict[str, Any]:
    import torch
    from PIL import Image

    from engine.diffusion.engine import DiffusionEngine
    from engine.diffusion.settings import DiffusionSettings

    photos = fixtures_dir()
    garment = Image.open(photos.joinpath(*GARMENT)).convert("RGB")
    model = Image.open(photos.joinpath(*MODEL)).convert("RGB")
    engine = DiffusionEngine(DiffusionSettings(weights_dir=weights, size=size,
                                               max_batch=max(batches), device=device,
                                               dtype=dtype, gate="pass", tryon="fashn"))
    product_window = engine.settings.batch_window
    on_cuda = engine.models.device.type == "cuda"

    def sync() -> None:
        if on_cuda:
            torch.cuda.synchronize(engine.models.device)

    def calls(count: int) -> float:
        """Seconds for `count` body swaps started together."""
        start = threading.Barrier(count + 1)
        errors: list[BaseException] = []

        def one() -> None:
            start.wait()
            try:
                engine.body_swap(garment, model, None)
            except BaseException as error:  # noqa: BLE001 - raised below, in this thread
                errors.append(error)

        threads = [threading.Thread(target=one) for _ in range(count)]
        for thread in threads:
            thread.start()
        sync()
        began = time.perf_counter()
        start.wait()
        for thread in threads:
            thread.join()
        sync()
        if errors:
            raise errors[0]
        return time.perf_counter() - began

    try:
        engine.warm_up()
        calls(1)  # the analysis's models loaded, DWPose's sessions warm
        figures: dict[str, Any] = {}
        for batch in batches:
            engine.batcher.max_batch = batch  # a batch starts once all B calls are in
            engine.batcher.window = product_window if batch == 1 else window
            engine.models.reset_peak_memory()
            calls(batch)  # this batch size's kernels chosen
            sizes_before = len(engine.batcher.stats.sizes)
            runs = [calls(batch) for _ in range(latency_runs if batch == 1 else repeats)]
            per_image = [run / batch for run in runs]
            figures[str(batch)] = {
                "per_image_p50": round(percentile(per_image, 0.50), 4),
                "per_image_p90": round(percentile(per_image, 0.90), 4),
                "median_wall_seconds": round(statistics.median(runs), 4),
                "runs": [round(run, 4) for run in runs],
                "batch_sizes_run": engine.batcher.stats.sizes[sizes_before:],
                "peak_memory_gb": (round(engine.models.peak_memory_bytes() / 1e9, 3)
                                   if on_cuda else None),
            }
            print(f"  whole call, {batch} at once: {figures[str(batch)]['per_image_p50']:.3f} "
                  f"s/image, batches run {figures[str(batch)]['batch_sizes_run']}", flush=True)
        return {"operation": "body_swap (garment photo onto a catalog model)",
                "photos": ["/".join(GARMENT), "/".join(MODEL)],
                "batch_window_seconds": {"batch 1": product_window, "batch > 1": window},
                "warm_up_seconds": round(engine.warm_up_seconds, 3),
                "load_seconds": round(engine.models.report.seconds, 3), "batches": figures}
    finally:
        engine.close()


__all__ = ["whole_calls"]
