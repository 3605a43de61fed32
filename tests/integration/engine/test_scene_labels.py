"""Placement on real scenes, against hand labels (issue 19, item 4).

labels/scene_labels.json marks, for each photo in ../shared/fixtures/images/scenes/, the ground a
person could stand on and the range of rows where the horizon lies. A full-length person put on
the scene by the engine must stand inside the labelled ground at a height the labelled horizon
allows (a camera between the waist and eye level), or be framed from the knees up with a note
saying why. Both output shapes: portrait crops the scene's sides, landscape its top and bottom.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from PIL import Image

from engine import compose, scene
from engine.compose import GARMENT_MARGIN
from tests.integration.engine.test_compose import person
from tests.support.paths import fixture_images

LABELS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "labels" / "scene_labels.json").read_text()
)["scenes"]
SHAPES = [(768, 1024), (1024, 768)]  # width, height
# The drawn person is 1024 px tall at most: the canvas must be at least that size for it.
PERSON_SIZE = (768, 1024)


def photo(name: str) -> np.ndarray:
    path = next(p for p in fixture_images("scenes") if p.name == name)
    return np.asarray(Image.open(path).convert("RGB"))


def to_photo(x: float, y: float, back: np.ndarray, width: int, height: int) -> tuple[float, float]:
    """A canvas point (pixels) as fractions of the photo that compose.cover() framed there."""
    bh, bw = back.shape[:2]
    s = max(width / bw, height / bh)
    crop_w, crop_h = min(bw, round(width / s)), min(bh, round(height / s))
    x0, y0 = (bw - crop_w) // 2, (bh - crop_h) // 2
    return (x0 + x * crop_w / width) / bw, (y0 + y * crop_h / height) / bh


def on_ground(label: dict[str, Any], x: float, y: float) -> bool:
    return any(
        cv2.pointPolygonTest(np.array(poly, np.float32), (x, y), False) >= 0
        for poly in label["ground"]
    )


def test_every_scene_is_labelled() -> None:
    # scene-NN are labelled here; the folder's later photos carry their own walkable-ground
    # masks beside them (*.ground.png), which the placement work reads.
    named = [p for p in fixture_images("scenes") if p.name.startswith("scene-")]
    assert sorted(LABELS) == sorted(p.name for p in named)
    assert all(p.with_suffix(".ground.png").is_file()
               for p in fixture_images("scenes") if p not in named)


@pytest.mark.parametrize("name", sorted(LABELS))
@pytest.mark.parametrize("shape", SHAPES, ids=["portrait", "landscape"])
def test_a_full_length_person_stands_on_the_labelled_ground_or_is_framed_without_it(
    name: str, shape: tuple[int, int]
) -> None:
    width, height = shape
    label, back = LABELS[name], photo(name)
    cut, _ = person()
    cut = compose.Cutout(
        cv2.resize(cut.rgb, (width, height)), cv2.resize(cut.alpha, (width, height)),
        cut.kind, cut.feet_visible,
    ) if (width, height) != PERSON_SIZE else cut
    found = scene.analyse_covering(back, width, height)
    matrix = compose.placement(cut, width, height, GARMENT_MARGIN, found)
    alpha = compose.warp(cut, matrix, width, height)[1]
    x0, y0, x1, y1 = compose.bbox(alpha)
    assert y0 > 0, "the head is in view"
    if found.no_ground is not None:
        # Framed without ground: the frame cuts the legs, the head keeps its room, and the
        # task's detail will say why.
        assert alpha[-1].max() > 0.9 and y1 >= height - 1
        assert y0 <= 0.12 * height
        assert found.note and found.note.startswith("Framed from the knees up")
        return
    # Standing: the feet (the bottom of the subject, in the middle of its width) on the ground.
    fx, fy = to_photo((x0 + x1) / 2, y1, back, width, height)
    assert on_ground(label, fx, fy), f"feet at {fx:.2f}, {fy:.2f} of the photo: not on ground"
    # Perspective: some horizon in the labelled range makes this height an adult's, seen from
    # a camera between the waist and eye level (rows as fractions of the photo).
    _, head = to_photo(0, y0, back, width, height)
    tall = fy - head
    low, high = label["horizon"]
    assert fy > high, "the feet are below the horizon"
    ratio_most, ratio_least = tall / (fy - high), tall / (fy - low)
    assert ratio_most >= 0.9 * scene.PERSON_OVER_CAMERA, f"too small: {ratio_most:.2f}"
    assert ratio_least <= 1.1 * scene.PERSON_OVER_LOW_CAMERA, f"towers: {ratio_least:.2f}"


def test_the_horizon_is_found_within_its_label_on_most_scenes() -> None:
    """The horizon estimate (from converging lines, else a sky line) lies in the labelled range
    on at least 6 of the 7 scenes. Measured: all but scene-04, whose sky line stops at the
    cliff's top above the sea (0.25 for 0.36-0.44): a larger person there, still plausible
    (checked above)."""
    misses = []
    for name, label in sorted(LABELS.items()):
        found = scene.cues(photo(name))
        low, high = label["horizon"]
        if found.horizon is None or not low <= found.horizon <= high:
            misses.append((name, found.horizon))
    assert len(misses) <= 1, misses


def test_knee_up_framing_on_the_composite_itself() -> None:
    """on_photo frames a full-length person from the knees up on the far square (scene-01) and
    keeps them whole on the room's floor (scene-02)."""
    cut, _ = person()
    width, height = PERSON_SIZE
    far = compose.on_photo(cut, photo("scene-01.jpg"))
    near = compose.on_photo(cut, photo("scene-02.jpg"))
    canvas_far = compose.cover(photo("scene-01.jpg"), width, height)
    canvas_near = compose.cover(photo("scene-02.jpg"), width, height)
    # The drawn person's dark shoes end the body: in the room they are in view, over the far
    # square the frame's bottom rows show the trousers instead of the paving.
    changed_far = np.abs(far.astype(int) - canvas_far.astype(int)).max(axis=2) > 40
    changed_near = np.abs(near.astype(int) - canvas_near.astype(int)).max(axis=2) > 40
    assert changed_far[-3:].any(axis=1).all(), "knee-up: the person reaches the frame's bottom"
    rows_near = np.nonzero(changed_near[:, width // 2 - 40 : width // 2 + 40].any(axis=1))[0]
    assert rows_near.max() < 0.97 * height, "standing: the feet are in view"
