"""The sky line (engine/horizon.py): a step from smooth sky to busier ground, not a slope.

A night or dusk sky brightens steeply toward the horizon; on the analysis thumbnail that slope
is as strong as an edge on every row it covers, across the whole width. Only the step where
the sky ends is the horizon; a slope alone says nothing (the scene then has no horizon).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import horizon, scene

H, W = 1000, 800


def smoothstep(x: np.ndarray, start: float, end: float) -> np.ndarray:
    t = np.clip((x - start) / (end - start), 0.0, 1.0)
    return np.asarray(t * t * (3.0 - 2.0 * t))


def night_field(step: float | None = 0.55, seed: int = 3) -> np.ndarray:
    """A dark blue sky brightening steeply (smoothly) from 0.05 to 0.35 of the height (at most
    3 L per row of the analysis thumbnail, field-01's slope), then an evenly lit
    band of sky, then (at `step`) dark, textured grass; without `step` the sky fades slowly
    into the grass instead (no line anywhere)."""
    rng = np.random.default_rng(seed)
    rows = np.arange(H) / H
    light = 40.0 + 130.0 * smoothstep(rows, 0.05, 0.35)
    if step is None:
        light -= 110.0 * smoothstep(rows, 0.45, 0.95)
    img = light[:, None, None] * np.array([0.55, 0.75, 1.0])[None, None, :]
    img = np.repeat(img, W, axis=1).astype(np.float32)
    grass = np.array([30, 90, 45], np.float32) + rng.normal(0, 18, (H, W, 1)).astype(np.float32)
    if step is not None:
        y = int(step * H)
        img[y:] = grass[y:]
    img += rng.normal(0, 2, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def sky_line_of(rgb: np.ndarray) -> float | None:
    lab = np.asarray(cv2.cvtColor(scene.thumbnail(rgb), cv2.COLOR_RGB2Lab), np.uint8)
    return horizon.sky_line(lab, horizon.sky_pixels(lab))


def test_the_sky_line_is_the_step_to_the_ground_not_the_skys_slope() -> None:
    found = sky_line_of(night_field(0.55))
    assert found is not None and abs(found - 0.55) < 0.02, found


def test_a_sky_slope_without_a_step_is_no_horizon() -> None:
    assert sky_line_of(night_field(None)) is None


def test_a_slope_is_no_edge_and_a_step_is() -> None:
    rows = np.arange(100, dtype=np.float32)
    slope = np.repeat((rows * 3.0)[:, None], 20, axis=1)  # 3 L per row: Sobel 24 everywhere
    step = np.repeat(np.where(rows < 50, 40.0, 160.0).astype(np.float32)[:, None], 20, axis=1)
    dy = lambda img: np.abs(cv2.Sobel(cv2.GaussianBlur(img, (0, 0), 1.0),  # noqa: E731
                                      cv2.CV_32F, 0, 1, ksize=3))
    assert not horizon.edges(dy(slope))[10:90].any()
    assert horizon.edges(dy(step))[49:51].all()
