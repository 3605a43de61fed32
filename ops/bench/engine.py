"""Engine speed on one core: p50/p90 per 768x1024 image with models loaded, beside the cost of
only decoding and encoding the same image with Pillow (as a ratio, since machines are noisy).

    python -m ops.bench.engine            # pins itself to one core

`__main__` pins the process to one CPU (sched_setaffinity) and sets OMP/OpenBLAS threads to 1
before anything heavy is imported; OpenCV gets cv2.setNumThreads(1). mediapipe's TFLite runtime
(XNNPACK) sizes its own thread pool and the Python solutions API gives no way to change it;
with the process pinned, all of those threads share the one core, so the figures are honest
one-core figures. `bench_engine` itself changes nothing global for longer than its own run
(it restores OpenCV's thread count), so the full-stack benchmark can import and call it.
"""

from __future__ import annotations

import io
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from core.engine import Background

TARGETS_MS = {"background replace": 250.0, "model swap": 800.0, "photo analysis": 300.0}


def times_ms(action: Callable[[], object], repeats: int) -> list[float]:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def bench_engine(
    images: list[Path], models: list[Path], backgrounds: list[Path], repeats: int = 3
) -> dict[str, dict[str, float]]:
    """p50/p90 milliseconds per image for both operations, and Pillow decode+encode of the same
    inputs; every image is run `repeats` times with a rotating model and background, after one
    untimed run that loads the models."""
    import cv2

    from engine.cpu import CpuEngine, to_array
    from engine.photo_analysis import analyse_photo
    from ops.bench.support import first_accepted

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        engine = CpuEngine()
        engine.warm_up()
        model_images = [Image.open(p).convert("RGB") for p in models]
        back_images = [Background.photo(Image.open(p).convert("RGB")) for p in backgrounds]
        runs: dict[str, list[float]] = {name: [] for name in (*TARGETS_MS, "pillow")}
        for i, path in enumerate(images):
            data = path.read_bytes()
            photo = Image.open(io.BytesIO(data)).convert("RGB")
            background = back_images[i % len(back_images)]
            # First call per model: its analysis is cached from then on, as in production.
            model = model_images[first_accepted(engine, photo, model_images, i, background)]

            def pillow_only(data: bytes = data) -> None:
                decoded = Image.open(io.BytesIO(data)).convert("RGB")
                decoded.save(io.BytesIO(), "JPEG", quality=92)

            runs["pillow"] += times_ms(pillow_only, repeats)

            def replace(photo: Image.Image = photo, bg: Background = background) -> object:
                return engine.replace_background(photo, bg)

            def swap(
                photo: Image.Image = photo, m: Image.Image = model, bg: Background = background
            ) -> object:
                return engine.body_swap(photo, m, bg)

            def analyse(photo: Image.Image = photo) -> object:
                return analyse_photo(to_array(photo))

            runs["background replace"] += times_ms(replace, repeats)
            runs["model swap"] += times_ms(swap, repeats)
            runs["photo analysis"] += times_ms(analyse, repeats)
    finally:
        cv2.setNumThreads(threads)
    pillow = statistics.median(runs["pillow"])
    summary: dict[str, dict[str, float]] = {
        "pillow decode+encode": {"p50_ms": pillow, "p90_ms": percentile(runs["pillow"], 0.9)}
    }
    for name, target in TARGETS_MS.items():
        p50 = statistics.median(runs[name])
        summary[name] = {
            "p50_ms": p50,
            "p90_ms": percentile(runs[name], 0.9),
            "ratio_to_pillow": p50 / pillow,
            "target_ms": target,
        }
    return summary


def _pin_to_one_core() -> None:
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def main() -> None:
    _pin_to_one_core()
    from ops.seed import fixtures_dir

    fixtures = fixtures_dir()
    # People every service accepts (a whole face: the quality gate refuses a near-unchanged
    # swap of a face cut by the frame, and the upload's analysis refuses it before that).
    from ops.bench.support import BENCH_GARMENTS, BENCH_PHOTOS

    images = [fixtures / "people" / name for name in BENCH_PHOTOS[:4]] + [
        fixtures / "garments" / name for name in BENCH_GARMENTS
    ]
    repeats = 3
    summary = bench_engine(
        images,
        sorted((fixtures / "catalog-models").glob("*.jpg")),
        sorted((fixtures / "backgrounds").glob("*.jpg")),
        repeats,
    )
    print(
        f"  one core (pid {os.getpid()}, affinity {sorted(os.sched_getaffinity(0))}), "
        f"{len(images)} images 768x1024 (4 people, 4 garments), {repeats} runs each"
    )
    pillow = summary["pillow decode+encode"]
    print(
        f"  Pillow decode+encode   p50 {pillow['p50_ms']:7.1f} ms  p90 {pillow['p90_ms']:7.1f} ms"
    )
    for name in TARGETS_MS:
        row = summary[name]
        verdict = "ok" if row["p50_ms"] <= row["target_ms"] else "OVER TARGET"
        print(
            f"  {name:<22} p50 {row['p50_ms']:7.1f} ms  p90 {row['p90_ms']:7.1f} ms"
            f"  = {row['ratio_to_pillow']:5.1f} x Pillow   (target <= {row['target_ms']:.0f} ms:"
            f" {verdict})"
        )


if __name__ == "__main__":
    main()
