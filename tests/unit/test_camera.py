"""The camera's height read off a door (engine/camera.py), on synthetic walls drawn in
perspective: a door camera.DOOR metres tall whose foot is at row y_b, seen from a camera C
metres up with eye level at row y_h, is (y_b - y_h) * DOOR / C pixels tall."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine import camera
from engine import ground as grounds

H, W = 360, 480  # the size scene.cues() reads lines at (LINE_WIDTH wide)
HORIZON = 0.55


def wall(doors: list[tuple[float, float, float]], seed: int = 3) -> np.ndarray:
    """A plain wall over a floor, with doors (centre column, foot row as fractions of the
    width and height, camera height in metres that the door is drawn for), in gray."""
    rng = np.random.default_rng(seed)
    img = np.full((H, W), 200, np.float32)
    img[int(0.9 * H) :] = 150  # the floor in front of the wall
    for x, foot, cam in doors:
        tall = (foot - HORIZON) * H * camera.DOOR / cam
        width = 0.42 * tall  # a door's proportions
        x0, x1 = int(x * W - width / 2), int(x * W + width / 2)
        cv2.rectangle(img, (x0, int(foot * H - tall)), (x1, int(foot * H)), 90, -1)
        cv2.rectangle(img, (x0, int(foot * H - tall)), (x1, int(foot * H)), 40, 3)  # its frame
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def read(gray: np.ndarray, horizon: float | None = HORIZON) -> float | None:
    return camera.camera_height(grounds.segments(gray), (H, W), horizon)


@pytest.mark.parametrize(("cam", "foot"), [(0.7, 0.76), (0.9, 0.82), (1.2, 0.88), (1.6, 0.9)])
def test_a_door_crossing_eye_level_gives_the_cameras_height(cam: float, foot: float) -> None:
    found = read(wall([(0.5, foot, cam)]))
    assert found is not None and abs(found - cam) < 0.1 * cam, found


def test_two_doors_agreeing_give_their_median() -> None:
    found = read(wall([(0.3, 0.8, 1.0), (0.72, 0.78, 1.1)]))
    assert found is not None and 0.9 < found < 1.2


def test_doors_that_disagree_say_nothing() -> None:
    """A door read as 0.6 m and one as 1.6 m: one of them is not a door (a window, a
    cupboard); the eye-level default stands."""
    assert read(wall([(0.25, 0.74, 0.6), (0.75, 0.9, 1.6)])) is None


def test_a_door_wholly_below_eye_level_is_not_trusted() -> None:
    """From above a door's top (a camera 3 m up) the same shape is a window or a cupboard as
    often as a door: no reading, never a high camera from it."""
    img = wall([(0.5, 0.95, 3.0)])
    assert read(img) is None
    assert camera.door_readings(grounds.segments(img), (H, W), HORIZON) == []


def test_no_horizon_no_reading_and_a_plain_wall_says_nothing() -> None:
    assert read(wall([(0.5, 0.88, 1.0)]), None) is None
    assert read(wall([])) is None


def test_a_door_read_lower_than_half_a_metre_is_something_else() -> None:
    """A tall window whose sill sits just under the horizon reads as a camera at floor level:
    under camera.LOWEST, ignored."""
    assert read(wall([(0.5, 0.62, 0.3)])) is None
