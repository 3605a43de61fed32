"""The horizon (eye level) of a background photo, from the photo alone: either the vanishing
point that converging lines (streets, corridors, rooms) meet at, or a long smooth sky line above
the ground (beaches, fields). Split out of engine/scene.py, which turns the horizon into where a
person stands and how tall they look.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.arrays import BoolMask, Floats, Image8

LINE_WIDTH = 480  # line segments need more detail than the colour cues
MIN_SEGMENT = 0.05  # segments shorter than this share of the width are texture, not structure
VOTE_ANGLE = 1.0  # degrees: a segment votes for a point its line passes this close to


def vanishing_horizon(
    segments: Floats | None, shape: tuple[int, int], water: float | None = None
) -> float | None:
    """The row of the vanishing point most straight segments converge to, from both sides.

    Segments come from OpenCV's line segment detector (LSD), which finds faint, short edges a
    Hough transform misses on real photos (a road's edges, floor tiles). Only oblique segments
    vote (floor, kerb, road, roof and wall lines in perspective); horizontals and verticals say
    nothing about the horizon's height. A point supported from one side only is rejected:
    dune ripples, diagonal stripes or a staircase would produce one. The point may lie well
    beside the frame (a wall seen at an angle): only its row matters. Ripples on `water` (the
    row it starts at, as a fraction) are streaks, not lines in perspective: they do not vote.
    `segments`: ground.segments() of a gray image `shape` (rows, columns) in size.
    """
    h, w = shape
    if segments is None:
        return None
    seg = segments
    dx, dy = seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]
    length = np.hypot(dx, dy)
    angle = np.degrees(np.arctan2(np.abs(dy), np.abs(dx)))
    oblique = (length > MIN_SEGMENT * w) & (angle > 4) & (angle < 80)
    if water is not None:
        oblique &= np.maximum(seg[:, 1], seg[:, 3]) < water * h
    if oblique.sum() < 4:
        return None
    seg, dx, dy, length = seg[oblique], dx[oblique], dy[oblique], length[oblique]
    order = np.argsort(-length)[:60]
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
    inside = (px > -2 * w) & (px < 3 * w) & (py > 0.1 * h) & (py < 0.95 * h)
    if not inside.any():
        return None
    px, py = px[inside], py[inside]
    # Support: a segment votes for a point when the point lies on its line (within VOTE_ANGLE
    # seen from the segment's middle); votes weigh by length.
    mx, my = (seg[:, 0] + seg[:, 2]) / 2, (seg[:, 1] + seg[:, 3]) / 2
    distance = np.abs(a[None, :] * px[:, None] + b[None, :] * py[:, None] - c[None, :])
    reach = np.hypot(px[:, None] - mx[None, :], py[:, None] - my[None, :]) + 1.0
    votes = distance / reach < np.tan(np.radians(VOTE_ANGLE))
    support = votes @ length
    best = int(np.argmax(support))
    voters = votes[best]
    slope_sign = np.sign(dx * dy)
    both_sides = (voters & (slope_sign > 0)).sum() >= 2 and (voters & (slope_sign < 0)).sum() >= 2
    if not both_sides or voters.sum() < 5 or support[best] < 0.2 * length.sum():
        return None
    return float(py[best] / h)


def sky_colour(light: Floats, a: Floats, b: Floats) -> BoolMask:
    """Mean Lab (OpenCV's 8-bit scale) that could be a sky: blue, or bright and nearly neutral
    (overcast), never red or green, so a magenta studio gradient above a table is not one."""
    blue_or_grey = (b < 122) | ((light > 165) & (np.abs(b - 128) < 12))
    return np.asarray((np.abs(a - 128) <= 10) & blue_or_grey)


def sky_pixels(lab: Image8) -> BoolMask:
    """sky_colour per pixel (of a lightly blurred Lab, so sensor noise does not decide)."""
    smooth = cv2.blur(lab, (3, 3)).astype(np.float32)
    return sky_colour(smooth[..., 0], smooth[..., 1], smooth[..., 2])


EDGE_STEP = 12.0  # vertical Sobel response (8-bit L) of an edge
# An edge is a step, not a slope: its response stands out from the rows RAMP_REACH above or
# below it by RAMP_PEAK. A night sky brightening toward the horizon (field-01: L rises 2-3 per
# thumbnail row over a fifth of the frame) is steep enough to pass EDGE_STEP on every row of
# the slope, across the whole width, and was read as a horizon at 0.18 for a labelled 0.40.
RAMP_REACH = 4  # rows of the thumbnail (ANALYSIS_WIDTH wide): beyond a blurred step's response
RAMP_PEAK = 1.5


def edges(dy: Floats) -> BoolMask:
    """Pixels on a horizontal edge: a strong vertical change that is a step, not part of a
    smooth slope (a sky's gradient, a lit wall's falloff)."""
    above, below = np.zeros_like(dy), np.zeros_like(dy)
    above[RAMP_REACH:], below[:-RAMP_REACH] = dy[:-RAMP_REACH], dy[RAMP_REACH:]
    return np.asarray((dy > EDGE_STEP) & (dy > RAMP_PEAK * np.minimum(above, below)))


SKY_SHARE = 0.6  # of the region above a sky line, at least this is smooth sky-coloured pixels


def sky_line(lab: Image8, sky: BoolMask | None = None) -> float | None:
    """A straight, full-width line with smooth sky above it and busier ground (or sea) below.

    Below two thirds of the frame such a line is the foot of a studio wall, not a horizon, so
    it is not reported. Running sums make every candidate row a constant-time check. `sky`
    (smooth, sky-coloured pixels) lets a sky with something against it (a beach umbrella, a
    tree) count when most of it is plain sky.
    """
    h = lab.shape[0]
    light = lab[..., 0].astype(np.float32)
    dy = np.abs(cv2.Sobel(cv2.GaussianBlur(light, (0, 0), 1.0), cv2.CV_32F, 0, 1, ksize=3))
    texture = np.abs(cv2.Laplacian(light, cv2.CV_32F, ksize=3)).mean(axis=1)
    span = edges(dy).mean(axis=1)  # how much of the width an edge spans (horizons are long)
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
    base = (span[rows] > 0.75) & sky_colour(above[:, 0], above[:, 1], above[:, 2])
    ok = base & (above_texture < 6.0) & (below_texture > 1.3 * above_texture)
    if not ok.any() and sky is not None:
        # Only when no line has a plain sky above it: mostly sky (an umbrella against it).
        running_sky = np.cumsum(sky.mean(axis=1).astype(np.float64))
        ok = base & (running_sky[end - 1] / end >= SKY_SHARE) & (below_texture > above_texture)
    if not ok.any():
        return None
    candidates = rows[ok]
    return float(candidates[np.argmax(span[candidates])] / h)
