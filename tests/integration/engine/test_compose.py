"""Composites that sit in the scene: placement on the scene's ground (the light, colour match,
light wrap and shadows are measured in test_lighting.py).

The subjects are drawn (a full-length person with a white top, blue trousers and dark shoes,
and a half-body crop of it) so every region is known exactly; the scenes are the synthetic
street and beaches of tests/unit/test_scene.py and fixture backgrounds.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from engine import compose, scene
from engine.compose import GARMENT_MARGIN, Cutout
from tests.support.paths import fixture_images
from tests.unit.test_scene import beach, street

H, W = 1024, 768
WHITE = (246, 246, 244)
TROUSERS = (40, 70, 160)


def person(top: int = 100, bottom: int = 900) -> tuple[Cutout, np.ndarray]:
    """A full-length standing person, feet in view, and the mask of their white top."""
    rgb = np.zeros((H, W, 3), np.uint8)
    alpha = np.zeros((H, W), np.float32)
    top_mask = np.zeros((H, W), np.uint8)
    tall, cx = bottom - top, W // 2

    def y(f: float) -> int:
        return int(top + f * tall)

    def x(f: float) -> int:
        return int(cx + f * tall)

    def box(colour: tuple[int, ...], x0: int, y0: int, x1: int, y1: int) -> None:
        cv2.rectangle(rgb, (x0, y0), (x1, y1), colour, -1)
        cv2.rectangle(alpha, (x0, y0), (x1, y1), (1.0,), -1)

    head = ((cx, y(0.07)), (int(0.05 * tall), y(0.07) - top))
    cv2.ellipse(rgb, *head, 0, 0, 360, (200, 160, 135), -1)
    cv2.ellipse(alpha, *head, 0, 0, 360, (1.0,), -1)
    box(WHITE, x(-0.13), y(0.15), x(0.13), y(0.5))
    cv2.rectangle(top_mask, (x(-0.13), y(0.15)), (x(0.13), y(0.5)), 1, -1)
    for side in (-1, 1):
        inner, outer = cx + side * 6, x(side * 0.1)
        box(TROUSERS, min(inner, outer), y(0.5), max(inner, outer), y(0.96))
        shoe = x(side * 0.11)
        box((30, 30, 32), min(inner, shoe), y(0.96), max(inner, shoe), bottom)
    rng = np.random.default_rng(5)
    rgb = np.clip(rgb.astype(np.float32) + rng.normal(0, 1.5, rgb.shape), 0, 255).astype(np.uint8)
    soft = np.asarray(cv2.GaussianBlur(alpha, (0, 0), 1.2), np.float32)
    return Cutout(rgb, soft, "person", True), top_mask.astype(bool)


def half_body() -> Cutout:
    """The same person, enlarged so the frame cuts them at the thighs (a catalog crop)."""
    full, _ = person(top=150, bottom=900)
    m = np.array([[1.6, 0, -0.3 * W], [0, 1.6, -100]], np.float32)
    rgb = cv2.warpAffine(full.rgb, m, (W, H), borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(full.alpha, m, (W, H))
    assert alpha[-1].max() > 0.9, "the crop must run off the frame's bottom"
    return Cutout(rgb, alpha, "person", False)


def placed(cut: Cutout, back: np.ndarray) -> tuple[np.ndarray, scene.Scene]:
    """The subject's alpha where on_photo puts it, and the scene it used."""
    canvas = compose.cover(back, W, H)
    found = scene.analyse(canvas)
    matrix = compose.placement(cut, W, H, GARMENT_MARGIN, found)
    return compose.warp(cut, matrix, W, H)[1], found


def fixture_background(name: str) -> np.ndarray:
    path = next(p for p in fixture_images("backgrounds") if p.stem == name)
    return np.asarray(Image.open(path).convert("RGB"))


def uniform(colour: tuple[int, int, int], noise: float = 3.0, seed: int = 9) -> np.ndarray:
    rng = np.random.default_rng(seed)
    base = np.full((H, W, 3), colour, np.float32) + rng.normal(0, noise, (H, W, 3))
    return np.clip(base, 0, 255).astype(np.uint8)


# Placement -------------------------------------------------------------------------------


def test_full_length_person_on_a_wide_street_is_smaller_and_stands_on_its_ground() -> None:
    cut, _ = person()
    alpha, found = placed(cut, street(0.45))
    x0, y0, x1, y1 = compose.bbox(alpha)
    assert found.source == "vanishing point"
    assert (y1 - y0) < 0.65 * H  # not filling the frame of a wide street
    assert abs(y1 - found.ground * H) < 0.02 * H  # feet on the estimated ground
    assert abs(y0 - (found.horizon or 0) * H) < 0.1 * H  # head near eye level


def test_full_length_person_on_a_studio_set_fills_the_frame_as_before() -> None:
    cut, _ = person()
    for name in ("bg-4", "bg-6"):
        alpha, _ = placed(cut, fixture_background(name))
        x0, y0, x1, y1 = compose.bbox(alpha)
        assert (y1 - y0) > 0.75 * H, name
        assert abs(y1 - compose.GROUND_LINE * H) < 0.01 * H, name


def test_nobody_is_stood_on_water() -> None:
    cut, _ = person()
    for water_from in (0.6, 0.75):
        back = beach(water_from=water_from)
        alpha, found = placed(cut, back)
        _, y0, _, y1 = compose.bbox(alpha)
        assert y1 < water_from * H, f"feet at {y1 / H:.2f}, water from {water_from}"
        assert y0 > 0  # the whole person in view


def test_half_body_crop_keeps_filling_the_frame_bottom_on_any_scene() -> None:
    cut = half_body()
    for back in (street(0.45), beach(water_from=0.7), fixture_background("bg-10")):
        alpha, _ = placed(cut, back)
        assert np.array_equal(alpha, cut.alpha)  # framing kept: the cut stays on the edge
        out = compose.on_photo(cut, back)
        assert out.shape == (H, W, 3)


def test_catalog_shot_with_the_head_cut_keeps_its_framing_but_never_stands_on_water() -> None:
    cut, _ = person(top=-60, bottom=960)  # head cut by the frame's top, feet in view
    assert compose.head_cropped_feet_in_view(cut)
    alpha, _ = placed(cut, street(0.45))
    assert np.array_equal(alpha, cut.alpha)  # shrinking it would float the cut edge
    for water_from, below_frame in ((0.7, False), (0.42, True)):
        alpha, found = placed(cut, beach(water_from=water_from))
        assert alpha[0].max() > 0.9  # the cut stays on the frame's top edge
        _, _, _, y1 = compose.bbox(alpha)
        if below_frame:  # open sea: the frame cuts the legs, no feet on the water in view
            assert y1 >= H - 2
        else:
            assert y1 < water_from * H


def test_on_photo_uses_the_scene_it_is_given() -> None:
    cut, _ = person()
    small = scene.Scene(0.5, 0.9, 0.35, None, "given")
    out = compose.on_photo(cut, uniform((128, 128, 128)), small)
    canvas = compose.cover(uniform((128, 128, 128)), W, H)
    changed = np.abs(out.astype(int) - canvas.astype(int)).max(axis=2) > 40
    ys = np.nonzero(changed.any(axis=1))[0]
    assert abs(ys.max() - 0.9 * H) < 0.02 * H and abs((ys.max() - ys.min()) - 0.35 * H) < 0.03 * H
