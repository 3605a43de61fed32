"""The user's placement adjustment (issue 13) in the engine: applied after the automatic
placement (moved by fractions of the frame, scaled around the ground point), on a photo and on
white, and carried through the remote contract to the real CPU engine."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from core.engine import Background, Placement
from engine import compose
from engine.compose import Cutout
from engine.remote import RemoteEngine
from tests.integration.engine.test_remote import Service, fixture, service  # noqa: F401

W, H = 600, 800


def standing_person() -> Cutout:
    """A full-length "person": a red box, feet in view, not touching the frame."""
    alpha = np.zeros((H, W), np.float32)
    alpha[150:700, 250:350] = 1.0
    rgb = np.zeros((H, W, 3), np.uint8)
    rgb[..., 0] = 220
    return Cutout(rgb, alpha, "person", True)


def subject_mask(image: np.ndarray) -> np.ndarray:
    """The red subject's pixels (the backgrounds below have no strong red)."""
    r, g, b = (image[..., i].astype(int) for i in range(3))
    return (r > 120) & (r - g > 60) & (r - b > 60)


def stats(mask: np.ndarray) -> tuple[float, float, int, int]:
    """Centroid x, bottom row, height and area of the mask."""
    ys, xs = np.nonzero(mask)
    assert xs.size, "no subject in the image"
    return float(xs.mean()), int(ys.max()), int(ys.max() - ys.min() + 1), int(xs.size)


@pytest.fixture(scope="module")
def backdrop() -> np.ndarray:
    # A plain grey-blue scene: the automatic placement uses the backdrop framing.
    back = np.zeros((H, W, 3), np.uint8)
    back[...] = (90, 110, 140)
    return back


@pytest.mark.parametrize("where", ["photo", "white"])
def test_offset_moves_and_scale_keeps_the_ground(where: str, backdrop: np.ndarray) -> None:
    cut = standing_person()

    def render(adjustment: Placement | None) -> np.ndarray:
        if where == "photo":
            return compose.on_photo(cut, backdrop, adjustment=adjustment)
        return compose.on_white(cut, adjustment)

    x0, bottom0, height0, area0 = stats(subject_mask(render(None)))
    assert np.array_equal(render(Placement()), render(None))  # identity changes nothing

    x1, bottom1, height1, _ = stats(subject_mask(render(Placement(x=0.2, y=0.0, scale=1.0))))
    assert abs((x1 - x0) - 0.2 * W) <= 2 and abs(bottom1 - bottom0) <= 1 and height1 == height0

    x2, bottom2, height2, area2 = stats(subject_mask(render(Placement(scale=0.5))))
    # Scaled around its ground point: the feet stay, the centre stays, half as tall.
    assert abs(bottom2 - bottom0) <= 2 and abs(x2 - x0) <= 2
    assert abs(height2 / height0 - 0.5) < 0.02 and abs(area2 / area0 - 0.25) < 0.03

    _, bottom3, _, _ = stats(subject_mask(render(Placement(y=-0.1, scale=0.8))))
    assert abs((bottom3 - bottom0) + 0.1 * H) <= 2


def test_out_of_range_placement_is_refused() -> None:
    for bad in ({"x": 0.51}, {"y": -0.6}, {"scale": 0.29}, {"scale": 2.01}):
        with pytest.raises(ValueError):
            Placement(**bad)  # type: ignore[arg-type]


def test_placement_travels_through_the_remote_contract(service: Service) -> None:  # noqa: F811
    photo = fixture("people", 0)
    white = Background.builtin("white")
    with RemoteEngine(service.url, timeout_seconds=120, poll_interval=0.05) as remote:
        plain = np.asarray(remote.replace_background(photo, white))
        moved = np.asarray(
            remote.replace_background(photo, white, placement=Placement(x=0.15, scale=0.7))
        )
    assert plain.shape == moved.shape
    width = plain.shape[1]

    def dark(image: np.ndarray) -> np.ndarray:
        return np.asarray(Image.fromarray(image).convert("L")) < 235

    ys0, xs0 = np.nonzero(dark(plain))
    ys1, xs1 = np.nonzero(dark(moved))
    # Moved right (about 0.15 of the width; less if the frame crops it) and smaller.
    assert 0.07 * width < xs1.mean() - xs0.mean() < 0.2 * width
    assert 0.3 < xs1.size / xs0.size < 0.75
