"""Engine speed on one core: p50 per 768x1024 image with models loaded, beside the cost of only
decoding and encoding the same image with Pillow (as a ratio, since machines are noisy).

Run pinned to one core by `make bench` (taskset -c 0, OMP/OpenCV threads 1). mediapipe's
TFLite runtime sizes its own thread pool; pinning the process keeps it on the one core.
"""

from __future__ import annotations

import io
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import cv2
from PIL import Image

from core.engine import Background
from ops.seed import fixtures_dir

TARGETS_MS = {"background replace": 250.0, "model swap": 800.0}


def _p50(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def bench_engine(
    images: list[Path], models: list[Path], backgrounds: list[Path], repeats: int = 3
) -> dict[str, dict[str, float]]:
    """p50 milliseconds per operation and for Pillow decode+encode of the same inputs."""
    from engine.cpu import CpuEngine

    cv2.setNumThreads(1)
    engine = CpuEngine()
    engine.warm_up()
    model = Image.open(models[0]).convert("RGB")
    background = Background.photo(Image.open(backgrounds[0]).convert("RGB"))
    results: dict[str, list[float]] = {"background replace": [], "model swap": [], "pillow": []}
    for path in images:
        data = path.read_bytes()
        photo = Image.open(io.BytesIO(data)).convert("RGB")

        def pillow_only(data: bytes = data) -> None:
            decoded = Image.open(io.BytesIO(data)).convert("RGB")
            decoded.save(io.BytesIO(), "JPEG", quality=92)

        engine.body_swap(photo, model, background)  # first call per image shape: warm caches
        results["pillow"].append(_p50(pillow_only, repeats))
        def replace(photo: Image.Image = photo) -> None:
            engine.replace_background(photo, background)

        def swap(photo: Image.Image = photo) -> None:
            engine.body_swap(photo, model, background)

        results["background replace"].append(_p50(replace, repeats))
        results["model swap"].append(_p50(swap, repeats))
    pillow = statistics.median(results["pillow"])
    summary = {"pillow decode+encode": {"p50_ms": pillow}}
    for name in ("background replace", "model swap"):
        p50 = statistics.median(results[name])
        summary[name] = {
            "p50_ms": p50,
            "ratio_to_pillow": p50 / pillow,
            "target_ms": TARGETS_MS[name],
        }
    return summary


def main() -> None:
    fixtures = fixtures_dir()
    images = sorted((fixtures / "people").glob("*.jpg"))[:6]
    summary = bench_engine(
        images,
        sorted((fixtures / "catalog-models").glob("*.jpg")),
        sorted((fixtures / "backgrounds").glob("*.jpg")),
    )
    print(
        f"  one core (pid {os.getpid()}, affinity {sorted(os.sched_getaffinity(0))}), "
        f"{len(images)} images 768x1024, p50 of 3 runs each"
    )
    pillow = summary["pillow decode+encode"]["p50_ms"]
    print(f"  Pillow decode+encode   {pillow:7.1f} ms")
    for name in ("background replace", "model swap"):
        row = summary[name]
        verdict = "ok" if row["p50_ms"] <= row["target_ms"] else "OVER TARGET"
        print(
            f"  {name:<22} {row['p50_ms']:7.1f} ms  = {row['ratio_to_pillow']:5.1f} x Pillow"
            f"   (target <= {row['target_ms']:.0f} ms: {verdict})"
        )


if __name__ == "__main__":
    main()
