"""What a background photo says about where a person could stand in it.

From the photo alone (no model, a few milliseconds on a thumbnail): the horizon (eye level),
either from a vanishing point of converging lines (streets, corridors, rooms) or from a long
smooth sky line above the ground (beaches, fields); water or sky at the bottom of the frame,
where nobody can stand; and from those, where a full-length person's feet go and how tall an
adult standing there looks. Scenes without any depth cue (studio backdrops, smoke, bokeh) keep
the shop framing: the subject fills the frame. Scenes without ground near enough to stand on
(water up to the horizon, a far-off square under a big sky) frame the person from the knees up.

The geometry: for a camera at height C looking roughly level, a person of height P whose feet
are at image row y_g appears (y_g - y_horizon) * P / C tall, whatever the lens. Photographers
hold the camera near eye level, so heads sit near the horizon. Where the camera's height is
known (`camera`, metres: a view from a 4th floor, a shot from table height), C is that height
instead: given, or read off a door in view (camera.py), else EYE_LEVEL.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from engine import camera as cameras
from engine import ground as grounds
from engine.arrays import BoolMask, Image8
from engine.ground import Ground
from engine.horizon import LINE_WIDTH, sky_line, sky_pixels, vanishing_horizon

# The shop framing, kept for backdrops: feet on this line, at most this tall (of the height).
BACKDROP_GROUND = 0.94
BACKDROP_HEIGHT = 0.84
# An adult's height over the camera's height. Photographers hold the camera near eye level;
# fashion shots are also taken from the waist (legs look longer), so a person up to that
# camera's scale still follows the perspective.
ADULT = 1.72  # metres, shoes on
EYE_LEVEL = 1.6  # metres: the camera's height when nothing says otherwise
WAIST = 0.9  # metres: the lowest camera a fashion photographer holds
PERSON_OVER_CAMERA = ADULT / EYE_LEVEL  # an eye-level camera: the default
PERSON_OVER_LOW_CAMERA = ADULT / WAIST  # a camera at the waist: the largest plausible scale
# The camera's height, when not given, is read off a door in view (camera.camera_height); the
# cues tried for it, and why they failed, are listed there.
# Smaller than this the garments stop being the picture: a scene whose ground in view is too
# far away for a full-length person of this size, even from a low camera, frames the person
# from the knees up instead (see KNEE_UP).
MIN_HEIGHT = 0.3
HEAD_ROOM = 0.04  # the head stays this far below the frame's top
ANALYSIS_WIDTH = 192  # thumbnails: a horizon has no detail
WATER_MIN_BAND = 0.08  # a water strip thinner than this at the bottom is ignored
WATER_STEADY = 3.0  # ripples' strength varies less than this between the lowest bands
# Of a band's pixels, at least this share is water-coloured (foam and spray take the rest: a
# breaking wave's lowest bands are 0.64-0.8 blue).
WATER_BLUE = 0.6
SHORE_MARGIN = 0.02  # feet stay this far above the waterline
# Framed without ground (open sea to the horizon, ground too far away to stand on at a useful
# size): the frame's bottom cuts the person just below the knees, where a photographer would
# cut, so no ground is needed. Knees are about 0.27 of an adult's height above the soles; the
# head keeps KNEE_HEAD_ROOM. Feet and knees are then below the frame: ground > 1.
KNEE_SHARE = 0.72  # the share of the person's height in view, from the top of the head
KNEE_HEAD_ROOM = 0.06
KNEE_HEIGHT = (1.0 - KNEE_HEAD_ROOM) / KNEE_SHARE
KNEE_GROUND = KNEE_HEAD_ROOM + KNEE_HEIGHT
# Why a scene frames people without ground, for the task's detail.
NO_GROUND_WATER = "water"
NO_GROUND_FAR = "far"
NO_GROUND_UNSURE = "unsure"
NO_GROUND_NOTES = {
    NO_GROUND_WATER: "Framed from the knees up: the scene has water where a person would stand.",
    NO_GROUND_FAR: "Framed from the knees up: the ground in this scene is too far away for a "
    "full-length person.",
    NO_GROUND_UNSURE: "Framed from the knees up: no ground to stand on could be made out in "
    "this scene.",
}
MOVED_NOTE = "Moved to where the scene has ground to stand on."
# Feet: this far either side of their middle, per body height (a stance, shoes included).
FEET_HALF = 0.12
FEET_STEP = 0.04  # the search for ground moves the feet in steps of this (of the frame)


@dataclass(frozen=True)
class Scene:
    """Where a full-length person goes. Rows are fractions of the frame's height, from the top."""

    horizon: float | None  # eye level; None when the photo has no depth cue (a backdrop)
    ground: float  # the feet (below 1.0: in view; above: framed without ground)
    person_height: float  # a standing adult there, as a fraction of the frame's height
    water_top: float | None  # water or sky fills the frame's bottom from here down
    source: str  # "vanishing point" | "sky line" | "backdrop": why (eval and debugging)
    no_ground: str | None = None  # NO_GROUND_*: why the person is framed from the knees up
    feet_x: float = 0.5  # the feet's middle, as a fraction of the frame's width
    moved: bool = False  # moved off the usual spot (bottom centre) onto ground
    blocked: str | None = None  # when moved: NO_GROUND_*, what is at the usual spot

    @property
    def note(self) -> str | None:
        """A sentence for the task's detail when the framing is not the usual one."""
        if self.moved:
            return MOVED_NOTE
        return NO_GROUND_NOTES.get(self.no_ground or "")

    @property
    def note_without_feet(self) -> str | None:
        """The sentence when a shot whose feet were at the usual spot has them put below the
        frame (a head-cropped catalog shot: it cannot move like a full-length person)."""
        return NO_GROUND_NOTES.get(self.no_ground or self.blocked or "")


BACKDROP = Scene(None, BACKDROP_GROUND, BACKDROP_HEIGHT, None, "backdrop")


@dataclass(frozen=True)
class Cues:
    """What the background photo itself says, in rows of that photo (fractions of its height)."""

    horizon: float | None
    water_top: float | None
    source: str
    ground: Ground | None = None  # where feet may go, per pixel of the analysis thumbnail
    camera: float | None = None  # the camera's height in metres; None: unknown (eye level)


def thumbnail(rgb: Image8, width: int = ANALYSIS_WIDTH) -> Image8:
    h, w = rgb.shape[:2]
    if w <= width:
        return rgb
    return np.asarray(
        cv2.resize(rgb, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA),
        np.uint8,
    )


def water_colour(hsv: Image8, lab: Image8) -> BoolMask:
    """Blue to cyan pixels: the colour water takes from the sky it mirrors."""
    hue, sat = hsv[..., 0], hsv[..., 1]
    return np.asarray(((hue >= 85) & (hue <= 130) & (sat > 35)) | (lab[..., 2] < 118))


def water_top(rgb: Image8, lab: Image8) -> float | None:
    """Where water fills the bottom of the frame, found in bands from the bottom up.

    Water: blue to cyan, daylight-bright, and streaked sideways throughout (ripples and
    reflections run across the frame, so row after row the vertical change is at least twice
    the horizontal one). Medians over the band's rows, so a single long edge (a bed, a kerb)
    does not count. Plain blue (a seamless studio backdrop, smoke, a wall) is not water: it
    cannot be told from open sky and people stand in front of it all the time.
    """
    h, w = rgb.shape[:2]
    hsv = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV), np.uint8)
    value = hsv[..., 2]
    blue = water_colour(hsv, lab)
    light = lab[..., 0].astype(np.float32)
    gx = np.abs(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=1)
    gy = np.abs(cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)
    blue_rows, value_rows = blue.mean(axis=1), value.mean(axis=1)
    band = max(3, h // 25)
    top: int | None = None
    streaks: list[float] = []
    for y1 in range(h, band - 1, -band):
        y0 = y1 - band
        mx, my = float(np.median(gx[y0:y1])), float(np.median(gy[y0:y1]))
        water = (float(blue_rows[y0:y1].mean()) >= WATER_BLUE
                 and float(value_rows[y0:y1].mean()) > 90 and my > 3.0 and my > 2.0 * mx)
        if not water:
            break
        top = y0
        streaks.append(my)
    if top is None or (h - top) < WATER_MIN_BAND * h:
        return None
    # Ripples are a texture: as strong in one band as in the next. A bed's or a step's edge
    # under blue light streaks one or two bands several times more than those around it (bg-8,
    # a blue-lit bedroom: 11, 49 and 92 in its lowest three bands; sea: 22-29 throughout).
    first = streaks[: int(np.ceil(WATER_MIN_BAND * h / band))]
    if max(first) > WATER_STEADY * min(first):
        return None
    # The band above failed as a whole, but its lower rows may still be water: the shoreline
    # is where the water's colour stops, row by row.
    limit = max(0, top - band)
    while top > limit and blue_rows[top - 1] >= WATER_BLUE:
        top -= 1
    return float(top / h)


def largest_scale(camera: float | None) -> float:
    """A standing adult's height over its feet's depth below the horizon at its largest: the
    known camera's, else a waist-level camera's."""
    return ADULT / camera if camera else PERSON_OVER_LOW_CAMERA


def cues(background: Image8, camera: float | None = None) -> Cues:
    """Horizon and water of a background photo (the whole photo: a canvas cropped from it
    would lose half of the lines that converge on the horizon). `camera`: its height in
    metres when known (the labelled fixtures' tests), else camera_height's reading."""
    lines = thumbnail(background, LINE_WIDTH)
    small = thumbnail(lines)  # from the larger thumbnail: one pass over the photo, not two
    lab = np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2Lab), np.uint8)
    water = water_top(small, lab)
    gray = np.asarray(cv2.cvtColor(lines, cv2.COLOR_RGB2GRAY), np.uint8)
    segments = grounds.segments(gray)  # once: for the vanishing point and a furniture edge
    size = (gray.shape[0], gray.shape[1])
    horizon = vanishing_horizon(segments, size, water)
    source = "vanishing point"
    sky = sky_pixels(lab)
    if horizon is None:
        horizon, source = sky_line(lab, sky), "sky line"
    if horizon is None:
        source = "backdrop"
    if camera is None:
        camera = cameras.camera_height(segments, size, horizon)
    reach = MIN_HEIGHT / largest_scale(camera)
    hsv = np.asarray(cv2.cvtColor(small, cv2.COLOR_RGB2HSV), np.uint8)
    # Daylight-bright blue (a night scene is blue all over, its grass too).
    blue = water_colour(hsv, lab) & (hsv[..., 2] > 90)
    edge = None if horizon is not None else grounds.long_edge(segments, size)
    found = grounds.walkable(lab, horizon, water, source, sky, blue, reach, edge)
    return Cues(horizon, water, source, found, camera)


def camera_height(background: Image8) -> float | None:
    """The camera's height in metres read off the photo (camera.py), None when no cue is
    confident: the scale rule then assumes EYE_LEVEL."""
    return cues(background).camera


def standing_height(horizon: float, ground: float, camera: float | None = None) -> float:
    """The scale rule: an adult whose feet are at row `ground` is PERSON_OVER_CAMERA times the
    feet's distance below the horizon tall (an eye-level camera puts the eyes on the horizon),
    ADULT / `camera` times it where the camera's height is known (from a 4th floor a person is
    a tenth of that, from table height twice), clipped to MIN_HEIGHT and to what the frame
    holds with HEAD_ROOM. Rows and the result are fractions of the frame's height; the frame's
    own height plays no other part."""
    scale = ADULT / camera if camera else PERSON_OVER_CAMERA
    height = scale * (ground - max(horizon, -1.0))
    return float(np.clip(height, MIN_HEIGHT, min(BACKDROP_HEIGHT, ground - HEAD_ROOM)))


def knee_up(found: Cues, why: str) -> Scene:
    return Scene(found.horizon, KNEE_GROUND, KNEE_HEIGHT, found.water_top, found.source, why)


def feet_fit(ground: Ground | None, x: float, y: float, height: float) -> bool:
    """Whether a person `height` tall (of the frame's height) with feet at (x, y) stands on
    walkable ground (no map: nothing to check)."""
    if ground is None:
        return True
    aspect = ground.labels.shape[0] / max(1, ground.labels.shape[1])  # the map's h / w
    return ground.feet_fit(x, y, FEET_HALF * height * aspect)


def find_ground(found: Cues, first: Scene) -> Scene:
    """`first` moved onto verified ground when its feet are not on any: sideways first (the
    same perspective and size), then farther back toward the horizon (smaller, by the scale
    rule), as long as a full-length person stays at least MIN_HEIGHT (from a waist-level
    camera, or the known one). Else knee-up framing, saying what was under the feet."""
    ground, horizon = found.ground, found.horizon
    if ground is None or feet_fit(ground, 0.5, first.ground, first.person_height):
        return first
    under = ground.why_not(0.5, min(first.ground, 0.999))
    why = {grounds.WATER: NO_GROUND_WATER, grounds.BEYOND: NO_GROUND_FAR}.get(
        under, NO_GROUND_UNSURE)
    aspect = ground.labels.shape[0] / max(1, ground.labels.shape[1])  # width per height
    if horizon is not None:
        lowest = horizon + MIN_HEIGHT / largest_scale(found.camera)
        for row in np.arange(first.ground, lowest - 1e-6, -FEET_STEP):
            height = standing_height(horizon, float(row), found.camera)
            # The whole person stays in the frame: about 0.2 of their height either side.
            side = 0.2 * height * aspect
            for shift in np.arange(0.0, 0.5 - side, FEET_STEP):
                for x in {0.5 - shift, 0.5 + shift}:
                    if feet_fit(ground, float(x), float(row), height):
                        return replace(first, ground=float(row), person_height=height,
                                       feet_x=float(x), moved=True, blocked=why)
    return knee_up(found, why)


def framed(found: Cues) -> Scene:
    """Where a full-length person stands, given the cues in the frame's own rows."""
    horizon, water, source = found.horizon, found.water_top, found.source
    dry_bottom = water if water is not None else 1.0
    if horizon is None:
        if water is not None:
            # Water at the bottom of a photo with no horizon (a wave, a sea of cloud seen from
            # a summit): what lies above it cannot be told from a far shore or the sky.
            return knee_up(found, NO_GROUND_WATER)
        # A backdrop: the shop framing, if its floor is one (not a drone's view, ...).
        return find_ground(found, BACKDROP)
    if dry_bottom - horizon < 0.05:
        # Water from the frame's bottom up to the horizon: nowhere to stand in view.
        return knee_up(found, NO_GROUND_WATER)
    ground = min(BACKDROP_GROUND, dry_bottom - SHORE_MARGIN)
    depth = ground - max(horizon, -1.0)
    if depth * largest_scale(found.camera) < MIN_HEIGHT:
        # The nearest ground in view is so far that a full-length person there is tiny even
        # from a camera at the waist (a square before a monument, fields under a big sky), or
        # from the known camera (a street seen from a 4th floor).
        return knee_up(found, NO_GROUND_FAR)
    height = standing_height(horizon, ground, found.camera)
    return find_ground(found, Scene(horizon, ground, height, water, source))


def in_crop(
    found: Cues, top: float, bottom: float, left: float = 0.0, right: float = 1.0
) -> Cues:
    """The cues in the rows of a crop of the photo, `top` and `bottom` its rows there (and
    `left`, `right` its columns, for the ground map)."""
    span = bottom - top

    def row(value: float | None) -> float | None:
        return None if value is None else (value - top) / span

    water = row(found.water_top)
    if water is not None and water >= 1.0:
        water = None  # the water is cropped away
    ground = None if found.ground is None else found.ground.crop(top, bottom, left, right)
    return Cues(row(found.horizon), None if water is None else max(0.0, water), found.source,
                ground, found.camera)


def analyse(background: Image8, camera: float | None = None) -> Scene:
    """The scene for a background already at the output's framing (the canvas); `camera`:
    the camera's height in metres when known."""
    return framed(cues(background, camera))


def analyse_covering(
    background: Image8, width: int, height: int, camera: float | None = None
) -> Scene:
    """The scene of `background` as compose.cover() frames it on a width x height canvas: the
    cues come from the whole photo, then move to the canvas's rows."""
    bh, bw = background.shape[:2]
    scale = max(width / bw, height / bh)
    crop_h = min(bh, max(1, round(height / scale)))
    crop_w = min(bw, max(1, round(width / scale)))
    top, left = (bh - crop_h) // 2, (bw - crop_w) // 2
    return framed(in_crop(
        cues(background, camera), top / bh, (top + crop_h) / bh, left / bw, (left + crop_w) / bw))
