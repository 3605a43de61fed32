"""What a background photo says about where a person could stand in it.

From the photo alone (no model, a few milliseconds on a thumbnail): the horizon (eye level),
either from a vanishing point of converging lines (streets, corridors, rooms) or from a long
smooth sky line above the ground (beaches, fields); water or sky at the bottom of the frame,
where nobody can stand; and from those, where a full-length person's feet go and how tall an
adult standing there looks. Scenes without any depth cue (studio backdrops, smoke, bokeh) keep
the shop framing: the subject fills the frame.

The geometry: for a camera at height C looking roughly level, a person of height P whose feet
are at image row y_g appears (y_g - y_horizon) * P / C tall, whatever the lens. Photographers
hold the camera near eye level, so heads sit near the horizon.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

# The shop framing, kept for backdrops: feet on this line, at most this tall (of the height).
BACKDROP_GROUND = 0.94
BACKDROP_HEIGHT = 0.84
PERSON_OVER_CAMERA = 1.72 / 1.6  # an adult's height over an eye-level camera's height
# Smaller than this the garments stop being the picture; a scene that would want a smaller
# person gets a slightly near-placed one instead.
MIN_HEIGHT = 0.3
HEAD_ROOM = 0.04  # the head stays this far below the frame's top
ANALYSIS_WIDTH = 192  # thumbnails: a horizon has no detail
WATER_MIN_BAND = 0.08  # a water strip thinner than this at the bottom is ignored
SHORE_MARGIN = 0.02  # feet stay this far above the waterline
# No dry ground at all below the horizon (open sea): the frame cuts the person at the shins,
# as a photographer standing on a boat or pier would frame it, rather than standing on water.
BELOW_FRAME_GROUND = 1.1
BELOW_FRAME_HEIGHT = 0.98


@dataclass(frozen=True)
class Scene:
    """Where a full-length person goes. Rows are fractions of the frame's height, from the top."""

    horizon: float | None  # eye level; None when the photo has no depth cue (a backdrop)
    ground: float  # the feet
    person_height: float  # a standing adult there, as a fraction of the frame's height
    water_top: float | None  # water or sky fills the frame's bottom from here down
    source: str  # "vanishing point" | "sky line" | "backdrop": why (eval and debugging)


BACKDROP = Scene(None, BACKDROP_GROUND, BACKDROP_HEIGHT, None, "backdrop")


def thumbnail(rgb: np.ndarray, width: int = ANALYSIS_WIDTH) -> np.ndarray:
    h, w = rgb.shape[:2]
    if w <= width:
        return rgb
    return cv2.resize(rgb, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)


def vanishing_horizon(gray: np.ndarray) -> float | None:
    """The row of the vanishing point most straight edges converge to, from both sides.

    Only oblique segments vote (floor, kerb, roof and wall lines in perspective); horizontals
    and verticals say nothing about the horizon's height. A point supported from one side only
    is rejected: diagonal stripes or a staircase would produce one.
    """
    h, w = gray.shape
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 60, 150)
    found = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=int(0.08 * w),
                            minLineLength=int(0.14 * w), maxLineGap=3)
    if found is None:
        return None
    seg = found[:, 0, :].astype(np.float64)
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    length = np.hypot(dx, dy)
    angle = np.degrees(np.arctan2(np.abs(dy), np.abs(dx)))
    oblique = (angle > 12) & (angle < 84)
    if oblique.sum() < 4:
        return None
    seg, dx, dy, length = seg[oblique], dx[oblique], dy[oblique], length[oblique]
    order = np.argsort(-length)[:40]
    seg, dx, dy, length = seg[order], dx[order], dy[order], length[order]
    # Lines as a*x + b*y = c with (a, b) of unit length.
    a, b = dy / length, -dx / length
    c = a * seg[:, 0] + b * seg[:, 1]
    i, j = np.triu_indices(len(seg), 1)
    det = a[i] * b[j] - a[j] * b[i]
    ok = np.abs(det) > 1e-3
    i, j, det = i[ok], j[ok], det[ok]
    px = (c[i] * b[j] - c[j] * b[i]) / det
    py = (a[i] * c[j] - a[j] * c[i]) / det
    inside = (px > -0.5 * w) & (px < 1.5 * w) & (py > -0.6 * h) & (py < 0.95 * h)
    if not inside.any():
        return None
    px, py = px[inside], py[inside]
    # Support: a segment votes for a point when the point lies on its line (within 1.5 degrees
    # seen from the segment's middle); votes weigh by length.
    mx, my = (seg[:, 0] + seg[:, 2]) / 2, (seg[:, 1] + seg[:, 3]) / 2
    distance = np.abs(a[None, :] * px[:, None] + b[None, :] * py[:, None] - c[None, :])
    reach = np.hypot(px[:, None] - mx[None, :], py[:, None] - my[None, :]) + 1.0
    votes = distance / reach < np.tan(np.radians(1.5))
    support = votes @ length
    best = int(np.argmax(support))
    voters = votes[best]
    slope_sign = np.sign(dx * dy)
    both_sides = (voters & (slope_sign > 0)).sum() >= 2 and (voters & (slope_sign < 0)).sum() >= 2
    if not both_sides or voters.sum() < 4 or support[best] < 0.35 * length.sum():
        return None
    return float(py[best] / h)


def sky_colour(light: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Mean Lab (OpenCV's 8-bit scale) that could be a sky: blue, or bright and nearly neutral
    (overcast), never red or green, so a magenta studio gradient above a table is not one."""
    blue_or_grey = (b < 122) | ((light > 165) & (np.abs(b - 128) < 12))
    return np.asarray((np.abs(a - 128) <= 10) & blue_or_grey)


def sky_line(lab: np.ndarray) -> float | None:
    """A straight, full-width line with smooth sky above it and busier ground (or sea) below.

    Below two thirds of the frame such a line is the foot of a studio wall, not a horizon, so
    it is not reported. Running sums make every candidate row a constant-time check.
    """
    h = lab.shape[0]
    light = lab[..., 0].astype(np.float32)
    dy = np.abs(cv2.Sobel(cv2.GaussianBlur(light, (0, 0), 1.0), cv2.CV_32F, 0, 1, ksize=3))
    texture = np.abs(cv2.Laplacian(light, cv2.CV_32F, ksize=3)).mean(axis=1)
    span = (dy > 12).mean(axis=1)  # how much of the width an edge spans (horizons are long)
    rows = np.arange(int(0.15 * h), int(0.66 * h))
    if len(rows) == 0:
        return None
    means = lab.mean(axis=1).astype(np.float64)  # per row: L, a, b
    running = np.cumsum(means, axis=0)
    running_texture = np.cumsum(texture.astype(np.float64))
    end = rows - 2  # the region above stops short of the edge's own blur
    above = running[end - 1] / end[:, None]
    above_texture = running_texture[end - 1] / end
    below_texture = (running_texture[-1] - running_texture[rows + 2]) / (h - rows - 3)
    ok = (
        (span[rows] > 0.75)
        & (above_texture < 6.0)
        & (below_texture > 1.3 * above_texture)
        & sky_colour(above[:, 0], above[:, 1], above[:, 2])
    )
    if not ok.any():
        return None
    candidates = rows[ok]
    return float(candidates[np.argmax(span[candidates])] / h)


def water_top(rgb: np.ndarray, lab: np.ndarray) -> float | None:
    """Where water fills the bottom of the frame, found in bands from the bottom up.

    Water: blue to cyan, daylight-bright, and streaked sideways throughout (ripples and
    reflections run across the frame, so row after row the vertical change is at least twice
    the horizontal one). Medians over the band's rows, so a single long edge (a bed, a kerb)
    does not count. Plain blue (a seamless studio backdrop, smoke, a wall) is not water: it
    cannot be told from open sky and people stand in front of it all the time.
    """
    h, w = rgb.shape[:2]
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    hue, sat, value = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    blue = ((hue >= 85) & (hue <= 130) & (sat > 35)) | (lab[..., 2] < 118)
    light = lab[..., 0].astype(np.float32)
    gx = np.abs(cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)).mean(axis=1)
    gy = np.abs(cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)).mean(axis=1)
    blue_rows, value_rows = blue.mean(axis=1), value.mean(axis=1)
    band = max(3, h // 25)
    top: int | None = None
    for y1 in range(h, band - 1, -band):
        y0 = y1 - band
        mx, my = float(np.median(gx[y0:y1])), float(np.median(gy[y0:y1]))
        water = (float(blue_rows[y0:y1].mean()) >= 0.7 and float(value_rows[y0:y1].mean()) > 90
                 and my > 3.0 and my > 2.0 * mx)
        if not water:
            break
        top = y0
    if top is None or (h - top) < WATER_MIN_BAND * h:
        return None
    # The band above failed as a whole, but its lower rows may still be water: the shoreline
    # is where the water's colour stops, row by row.
    limit = max(0, top - band)
    while top > limit and blue_rows[top - 1] >= 0.7:
        top -= 1
    return float(top / h)


def analyse(background: np.ndarray) -> Scene:
    """The scene for a background already at the output's framing (the canvas)."""
    small = thumbnail(background)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2Lab)
    gray = lab[..., 0]
    water = water_top(small, lab)
    horizon = vanishing_horizon(gray)
    source = "vanishing point"
    if horizon is None:
        horizon, source = sky_line(lab), "sky line"
    dry_bottom = water if water is not None else 1.0
    if horizon is None:
        if water is None:
            return BACKDROP
        # A backdrop whose bottom is water: feet on the waterline, framing otherwise kept.
        ground = min(BACKDROP_GROUND, dry_bottom - SHORE_MARGIN)
        height = min(BACKDROP_HEIGHT, ground - HEAD_ROOM)
        return Scene(None, ground, height, water, "backdrop")
    if dry_bottom - horizon < 0.05:
        # Water from the frame's bottom up to the horizon: nowhere to stand in view.
        return Scene(horizon, BELOW_FRAME_GROUND, BELOW_FRAME_HEIGHT, water, source)
    ground = min(BACKDROP_GROUND, dry_bottom - SHORE_MARGIN)
    height = PERSON_OVER_CAMERA * (ground - max(horizon, -1.0))
    height = float(np.clip(height, MIN_HEIGHT, min(BACKDROP_HEIGHT, ground - HEAD_ROOM)))
    return Scene(horizon, ground, height, water, source)
