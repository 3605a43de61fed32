"""Scene analysis of background photos: horizon, ground, water, a standing adult's height.

Synthetic scenes have a known horizon and water line; the fixture backgrounds (studio sets,
smoke, a stage, rooms) must keep the shop framing.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from engine import scene
from engine.compose import cover
from tests.support.paths import fixture_images

H, W = 1024, 768


def street(horizon: float = 0.45, seed: int = 1) -> np.ndarray:
    """A wide street in one-point perspective: sky, facades whose storey lines and kerbs
    converge on the horizon, lane marks, sensor noise."""
    rng = np.random.default_rng(seed)
    img = np.zeros((H, W, 3), np.float32)
    hy, vx = int(horizon * H), W // 2
    img[:hy] = np.linspace(200, 235, hy)[:, None, None] * np.array([0.8, 0.9, 1.0])
    img[hy:] = (95, 95, 100)
    for side in (-1, 1):
        edge_x = 0 if side < 0 else W
        facade = np.array([[edge_x, int(0.05 * H)], [vx + side * 60, hy - 70],
                           [vx + side * 60, hy], [edge_x, int(0.8 * H)]], np.int32)
        cv2.fillPoly(img, [facade], (150 + 20 * side, 120, 100))
        for t in np.linspace(0.05, 0.95, 9):  # storey lines
            y_out = int(0.05 * H + t * 0.75 * H)
            cv2.line(img, (edge_x, y_out), (vx + side * 60, int(hy - 70 + t * 70)), (60, 50, 45), 3)
        cv2.line(img, (vx + side * 60, hy), (vx + side * W, H + 200), (220, 220, 210), 6)  # kerb
    for t in np.linspace(0.1, 1.0, 8):  # lane marks, longer and wider as they come near
        y0, y1 = int(hy + (H - hy) * t**2), int(hy + (H - hy) * min(1.0, t + 0.05) ** 2)
        cv2.line(img, (vx, y0), (vx, y1), (240, 240, 240), max(1, int(8 * t)))
    img += rng.normal(0, 4, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def beach(horizon: float = 0.42, water_from: float | None = None, seed: int = 2) -> np.ndarray:
    """Sky over the sea. Without `water_from`: sea to 0.62 of the height, then sand in front.
    With it: sand from the horizon to `water_from`, water (a lake, the sea) in front of that.
    Ripples are streaked sideways, as on real water."""
    rng = np.random.default_rng(seed)
    img = np.zeros((H, W, 3), np.float32)
    hy = int(horizon * H)
    img[:hy] = np.linspace(150, 225, hy)[:, None, None] * np.array([0.75, 0.88, 1.0])
    sea = np.array([30, 95, 150], np.float32)
    ripples = cv2.resize(rng.normal(0, 1, (H, W // 16)).astype(np.float32), (W, H)) * 14
    sand = np.array([205, 185, 150], np.float32)
    grain = rng.normal(0, 9, (H, W, 1)).astype(np.float32)
    if water_from is None:
        end = int(0.62 * H)
        img[hy:end] = sea + ripples[hy:end, :, None]
        img[end:] = sand + grain[end:]
    else:
        wy = int(water_from * H)
        img[hy:wy] = sand + grain[hy:wy]
        img[wy:] = sea + ripples[wy:, :, None]
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def background(name: str) -> np.ndarray:
    path = next(p for p in fixture_images("backgrounds") if p.stem == name)
    return cover(np.asarray(Image.open(path).convert("RGB")), W, H)


def test_on_a_wide_street_a_full_length_person_is_well_below_the_frame_height() -> None:
    found = scene.analyse(street(0.45))
    assert found.source == "vanishing point"
    assert found.horizon is not None and abs(found.horizon - 0.45) < 0.06
    assert found.ground >= 0.9 and found.water_top is None
    assert 0.4 < found.person_height < 0.65
    # An eye-level camera: the head is near the horizon.
    assert abs((found.ground - found.person_height) - found.horizon) < 0.08


def test_a_higher_horizon_means_a_taller_person_at_the_same_ground() -> None:
    high, low = scene.analyse(street(0.3)), scene.analyse(street(0.5))
    assert high.horizon is not None and low.horizon is not None
    assert high.horizon < low.horizon
    assert high.person_height > low.person_height + 0.1


def test_beach_horizon_from_the_sky_line_and_the_sand_in_front_is_ground() -> None:
    found = scene.analyse(beach())
    assert found.source == "sky line"
    assert found.horizon is not None and abs(found.horizon - 0.42) < 0.03
    assert found.water_top is None  # the sea is behind the sand, not under the feet
    assert found.ground >= 0.9 and found.person_height < 0.65


@pytest.mark.parametrize("water_from", [0.6, 0.7, 0.8])
def test_nobody_stands_on_water_in_front_of_the_shore(water_from: float) -> None:
    found = scene.analyse(beach(water_from=water_from))
    assert found.water_top is not None and abs(found.water_top - water_from) < 0.05
    assert found.ground < found.water_top  # on the sand beyond the water
    assert found.ground - found.person_height >= scene.HEAD_ROOM - 1e-6


def test_open_sea_below_the_horizon_puts_the_feet_below_the_frame() -> None:
    found = scene.analyse(beach(water_from=0.42))
    assert found.water_top is not None and found.water_top < 0.1
    assert found.ground > 1.2  # framed from the knees up, never standing on the water in view
    assert found.ground - found.person_height >= scene.HEAD_ROOM
    assert found.no_ground == scene.NO_GROUND_WATER and found.note and "water" in found.note


def test_ground_too_far_for_a_full_length_person_frames_from_the_knees_up() -> None:
    """A street whose horizon sits low: a full-length person on the nearest ground in view
    would be under 0.3 of the frame even from a camera at the waist."""
    found = scene.analyse(street(0.8))
    assert found.horizon is not None and abs(found.horizon - 0.8) < 0.08
    assert found.no_ground == scene.NO_GROUND_FAR and found.ground > 1.2
    near = scene.analyse(street(0.65))  # a small person, but standing
    assert near.no_ground is None and near.ground <= scene.BACKDROP_GROUND


def test_cues_come_from_the_whole_photo_and_move_to_the_canvas_rows() -> None:
    """A landscape street framed on a landscape canvas of another shape: the photo's top and
    bottom are cropped away, so the horizon's row on the canvas moves."""
    wide = cv2.resize(street(0.45), (2 * W, H))
    canvas_scene = scene.analyse_covering(wide, W, H // 2)  # a crop of the middle rows
    assert canvas_scene.horizon is not None
    assert abs(canvas_scene.horizon - 0.4) < 0.08  # (0.45 - 0.25) / 0.5


def test_plain_blue_backdrop_is_not_water() -> None:
    rng = np.random.default_rng(3)
    seamless = np.linspace(150, 190, H)[:, None, None] * np.array([0.45, 0.7, 1.0])
    image = np.clip(seamless + rng.normal(0, 2, (H, W, 3)), 0, 255).astype(np.uint8)
    assert scene.analyse(image) == scene.BACKDROP


def test_a_blue_lit_bedroom_floor_is_not_water() -> None:
    """bg-8: under blue light, the beds' lower edges streak the lowest bands sideways as ripples
    do, but one band several times more than the next; water's ripples are a steady texture.
    (Read on the whole photo, as the composite does, where it had been taken for water from 0.85
    down.)"""
    photo = np.asarray(Image.open(next(
        p for p in fixture_images("backgrounds") if p.stem == "bg-8")).convert("RGB"))
    assert scene.cues(photo).water_top is None
    # The same streaks as a steady texture are water: the sea of the synthetic beach, pasted
    # over the bedroom's lowest fifth.
    sea = cv2.resize(beach(water_from=0.42), (photo.shape[1], photo.shape[0]))
    rows = int(0.8 * photo.shape[0])
    mixed = photo.copy()
    mixed[rows:] = sea[rows:]
    found = scene.cues(mixed).water_top
    assert found is not None and abs(found - 0.8) < 0.03


@pytest.mark.parametrize("name", ["bg-4", "bg-6"])
def test_studio_sets_keep_the_shop_framing(name: str) -> None:
    """Pink studio arch, smoke: no horizon to go by (the foot of a studio wall is not one), so
    the subject fills the frame as before. (bg-10's floorboards converge on a vanishing point:
    a person stands on them at that perspective's scale.)"""
    found = scene.analyse(background(name))
    assert found == scene.BACKDROP
    assert found.person_height >= 0.8


def test_every_fixture_background_gives_a_sane_place_to_stand() -> None:
    for path in fixture_images("backgrounds"):
        found = scene.analyse(cover(np.asarray(Image.open(path).convert("RGB")), W, H))
        if found.no_ground is not None:  # framed from the knees up: head room, legs cut
            assert found.ground - found.person_height >= scene.HEAD_ROOM, path.name
            assert found.ground > 1.2 and found.note, path.name
            continue
        assert 0.6 <= found.ground <= scene.BACKDROP_GROUND, path.name
        assert scene.MIN_HEIGHT <= found.person_height <= scene.BACKDROP_HEIGHT, path.name
        assert found.ground - found.person_height >= scene.HEAD_ROOM - 1e-6, path.name
        if found.water_top is not None:
            assert found.ground < found.water_top, path.name


def office(desk: bool) -> np.ndarray:
    """A white office wall seen level, without any line converging on a horizon. With `desk`:
    the top of a white desk across the frame's bottom tenth, its edge a line against the wall
    and a pot on it, as in the offices a video call puts behind people; without: the wall runs
    seamlessly down to the frame's bottom, as a white studio wall does."""
    rng = np.random.default_rng(6)
    img = np.linspace(215, 228, H)[:, None, None] * np.ones((1, W, 3)) * [1.0, 1.0, 0.98]
    if desk:
        top = int(0.88 * H)
        img[top:] = (242, 242, 240)
        img[top - 3 : top] = (170, 170, 168)  # the desk's back edge, in its own shadow
        img[top + 12 : top + 16] = (200, 200, 198)  # its front edge
        cv2.ellipse(img, (int(0.7 * W), top - 40), (40, 50), 0, 0, 360, (90, 120, 80), -1)
    img += rng.normal(0, 1.5, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def grass_close_up() -> np.ndarray:
    """A macro of grass: soft green bokeh above, sharp blades filling the lower half."""
    rng = np.random.default_rng(7)
    img = cv2.GaussianBlur(rng.normal(0, 1, (H, W)).astype(np.float32), (0, 0), 25)
    img = (img / np.abs(img).max())[..., None] * 25 + np.array([120, 170, 60], np.float32)
    for _ in range(400):
        x, top = int(rng.integers(0, W)), int(rng.integers(int(0.45 * H), H))
        shade = float(rng.uniform(0.5, 1.4))
        cv2.line(img, (x, H), (x + int(rng.integers(-30, 30)), top),
                 (60 * shade, 150 * shade, 40 * shade), int(rng.integers(2, 6)))
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_desk_at_the_bottom_of_a_white_wall_gets_a_medium_shot() -> None:
    """Issue 36, the held-out offices: a calm top and no horizon used to be a backdrop, so the
    feet stood on the desk. The wall is a backdrop only down to where something interrupts it:
    feet never go on the desk (a medium shot instead, with the note)."""
    found = scene.analyse(office(desk=True))
    assert found.source == "backdrop" and found.no_ground == scene.NO_GROUND_UNSURE
    assert found.ground > 1.2 and found.note
    assert scene.analyse(office(desk=False)) == scene.BACKDROP  # a seamless wall


def test_a_close_up_of_grass_is_no_floor() -> None:
    found = scene.cues(grass_close_up())
    assert found.horizon is None and found.ground is not None
    assert not found.ground.walkable.any()
    assert scene.analyse(grass_close_up()).no_ground == scene.NO_GROUND_UNSURE


def tabletop(things: bool = False) -> np.ndarray:
    """A product shot's set: a violet-to-magenta studio gradient behind a wooden tabletop seen
    from just above it, the table's back edge a straight line across the frame at 0.6. With
    `things`: three dark boxes stand on it, breaking the edge into pieces under 0.3 of the
    width each."""
    rng = np.random.default_rng(8)
    edge = int(0.6 * H)
    img = np.zeros((H, W, 3), np.float32)
    img[:edge] = np.linspace(0, 1, W)[None, :, None] * [90, -60, -40] + [120, 60, 150]
    grain = cv2.resize(rng.normal(0, 1, (H // 8, 6)).astype(np.float32), (W, H))
    img[edge:] = np.array([200, 150, 100], np.float32) + grain[edge:, :, None] * 10
    if things:
        for x in (0.2, 0.5, 0.8):
            cv2.rectangle(img, (int((x - 0.04) * W), edge - 120), (int((x + 0.04) * W), edge + 30),
                          (40, 35, 30), -1)
    img += rng.normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_tabletop_under_a_studio_gradient_gets_a_medium_shot() -> None:
    """Nobody stands on a table: a straight edge across most of the frame below its middle is
    a table's or a desk's (a studio floor meets its wall in a curve); below it, no floor."""
    for things in (False, True):
        found = scene.analyse(tabletop(things))
        assert found.source == "backdrop" and found.no_ground == scene.NO_GROUND_UNSURE
    plain = tabletop()
    plain[int(0.6 * H):] = plain[int(0.6 * H) - 5]  # the gradient down to the floor: a set
    assert scene.analyse(plain) == scene.BACKDROP
