"""The light-from-the-scene steps' share of background replace, on one core (issue 36 item 4).

    python -m ops.bench.lighting        # pins itself to one core, as ops.bench.engine does

For a few shop photos on night, neon, sunset and daylight scenes: the whole engine call
(CpuEngine.replace_background, 768x1024) beside the lighting steps on the same placed subject:
harmonise (exposure, contrast, colour), light_wrap, and the shadows (contact, key light, cast).
Prints p50 milliseconds and the lighting's share of the call; the budget is the engine
bench's 250 ms for the whole call.
"""

from __future__ import annotations

import statistics

from PIL import Image

from ops.bench.engine import TARGETS_MS, _pin_to_one_core, percentile, times_ms

SCENES = ["scenes/field-01.jpg", "backgrounds/bg-3.jpg", "scenes/scene-07.jpg",
          "scenes/street-01.jpg", "scenes/room-02.jpg"]
REPEATS = 3


def main() -> None:
    _pin_to_one_core()
    import cv2
    import numpy as np

    from core.engine import Background
    from engine import compose, lighting, shadows
    from engine.analysis import find_subject
    from engine.cpu import CpuEngine, to_array
    from ops.bench.support import BENCH_PHOTOS
    from ops.seed import fixtures_dir

    cv2.setNumThreads(1)
    fixtures = fixtures_dir()
    engine = CpuEngine()
    engine.warm_up()
    runs: dict[str, list[float]] = {"call": [], "harmonise": [], "light_wrap": [], "shadows": []}

    def time_scene(photo: Image.Image, cut: compose.Cutout, back: Image.Image) -> None:
        background = Background.photo(back)
        engine.replace_background(photo, background)  # untimed: caches warm
        runs["call"] += times_ms(lambda: engine.replace_background(photo, background), REPEATS)
        placed = compose.place_on_photo(cut, np.asarray(back))
        rgb, alpha, canvas = placed.rgb, placed.alpha, placed.canvas
        runs["harmonise"] += times_ms(lambda: lighting.harmonise(rgb, alpha, canvas), REPEATS)
        runs["light_wrap"] += times_ms(lambda: lighting.light_wrap(rgb, alpha, canvas), REPEATS)
        runs["shadows"] += times_ms(lambda: shadows.contact_shadow(alpha, cut, canvas), REPEATS)

    for name in BENCH_PHOTOS[:3]:
        photo = Image.open(fixtures / "people" / name).convert("RGB")
        cut = find_subject(to_array(photo)).cutout
        for path in SCENES:
            time_scene(photo, cut, Image.open(fixtures / path).convert("RGB"))
    call = statistics.median(runs["call"])
    steps = sum(statistics.median(runs[step]) for step in ("harmonise", "light_wrap", "shadows"))
    print(f"  background replace, whole call: p50 {call:.0f} ms, "
          f"p90 {percentile(runs['call'], 0.9):.0f} ms "
          f"(target {TARGETS_MS['background replace']:.0f} ms)")
    for step in ("harmonise", "light_wrap", "shadows"):
        print(f"  {step}: p50 {statistics.median(runs[step]):.1f} ms")
    print(f"  lighting: {steps:.1f} ms, {100 * steps / call:.0f}% of the call "
          f"({len(runs['call'])} calls: {len(BENCH_PHOTOS[:3])} photos x {len(SCENES)} scenes)")


if __name__ == "__main__":
    main()
