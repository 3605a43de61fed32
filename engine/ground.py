"""Where a person's feet may go in a background photo: the walkable ground, per pixel of the
analysis thumbnail, with a confidence, and for every other pixel why not.

No model: no segmentation network that ships inside an installable package with a licence for
commercial use fits a CPU budget of a few milliseconds, so this reads what a photographer
would, from statistics of the thumbnail and the cues scene.py finds (the horizon, water):

- At or above eye level (the horizon), and just below it, is too far to stand at a useful
  size (a full-length person there would be under scene.MIN_HEIGHT even from a camera at the
  waist): BEYOND.
- Sky: smooth, sky-coloured and connected to the frame's top: SKY.
- Water filling the frame's bottom (ripples streaked sideways, scene.water_top): WATER.
- A photo without any horizon is either a backdrop (a studio wall, smoke, a plain sky: the top
  of the frame is calm) where the shop framing stands the person on the frame's floor, or a
  real place whose geometry could not be read: a drone's view of a forest or a beach, a
  staircase behind balustrades, a city seen from above, a diver's view under the surface.
  Those have a busy top; their ground is UNSURE and nobody's feet are shown on it.
- A calm top is not enough to trust the frame's bottom: a real place shows a wall or a sky
  up there too, with a desk, a cabinet, a chair or a far hill in front of it (see backdrop()),
  and a tabletop under a studio gradient shows its edge as one long straight line (long_edge()).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import BoolMask, Floats, Image8

GROUND, SKY, WATER, BEYOND, UNSURE = 0, 1, 2, 3, 4
WHY_NOT = {
    SKY: "sky",
    WATER: "water",
    BEYOND: "beyond the reach of a standing person (at or near eye level)",
    UNSURE: "no ground that could be verified",
}
# Confidence that a pixel labelled GROUND takes a person's weight, by what says so. These are
# priors of the cue's reliability, read off the fixture scenes (a vanishing point was right on
# every labelled scene it fired on; a sky line missed one of three; a backdrop's floor is only
# assumed), not calibrated probabilities.
CONFIDENCE = {"vanishing point": 0.85, "sky line": 0.7, "backdrop": 0.5}
MIN_CONFIDENCE = 0.5  # feet go on ground at least this sure
# A texture level (mean |Laplacian| of L on the 192 px thumbnail, over the top third) above
# which a photo without a horizon is a real place, not a backdrop. Measured: studio walls,
# smoke, bokeh, plain skies and empty rooms 3-24; drone views, balustrades, an underwater
# split shot, a neon street 37-130.
BUSY_TOP = 30.0
SKY_SMOOTH = 6.0  # local texture below which a sky-coloured pixel can be sky
# A bottom fifth busier than this, under a calm top, is something close to the lens (a macro of
# grass or foliage), never a studio floor. Measured on photos without a horizon: studio sets,
# rooms, beds, tables, dunes 3-40; a close-up of grass 103.
BUSY_BOTTOM = 2 * BUSY_TOP
# A calm top whose smooth, sky-or-wall-coloured part (bright neutral or blue, sky()) covers at
# least this share of the top third is a wall or a sky, not a coloured studio set: measured on
# white-wall offices and rooms, skies over a dune or a hill 0.46-1.0; pink, violet, stage and
# abstract sets 0-0.33.
WALL_SHARE = 0.45
# A straight horizontal edge below the photo's middle covering at least this share of its
# width (its LSD pieces on one row, together) is a table's, a desk's, a bed's or a shelf's,
# seen from about its height: a studio's floor meets its wall in a curve or a corner. Measured:
# tabletops 1.0 (bg-5, under bokeh) and 0.66 (bg-1, neon), beds 0.6, a white desk 0.5, a
# room's skirting 0.6; studio sets, dunes, a stage 0-0.34 (bg-4's steps 0.34).
LONG_EDGE = 0.5
EDGE_ROWS = 0.01  # pieces this close to a row (of the height) are on it
FEET_SHARE = 1.0  # all of the feet's width must be on ground


@dataclass(frozen=True)
class Ground:
    """Per thumbnail pixel: GROUND where feet may go, else why not (SKY, WATER, BEYOND,
    UNSURE). `confidence` is how sure the GROUND pixels are (see CONFIDENCE)."""

    labels: Image8
    confidence: float

    @property
    def walkable(self) -> BoolMask:
        ok: BoolMask = self.labels == GROUND
        return ok if self.confidence >= MIN_CONFIDENCE else np.zeros_like(ok)

    def crop(self, top: float, bottom: float, left: float, right: float) -> Ground:
        """The part of this map a crop of the photo shows (fractions of the photo)."""
        h, w = self.labels.shape
        y0, y1 = int(round(top * h)), max(int(round(top * h)) + 1, int(round(bottom * h)))
        x0, x1 = int(round(left * w)), max(int(round(left * w)) + 1, int(round(right * w)))
        return Ground(np.ascontiguousarray(self.labels[y0:y1, x0:x1]), self.confidence)

    def feet_fit(self, x: float, y: float, half_width: float) -> bool:
        """Whether feet centred at (x, y), `half_width` either side (fractions of this map),
        stand on walkable ground: their middle and FEET_SHARE of their width."""
        h, w = self.labels.shape
        if not 0.0 <= y < 1.0:
            return False
        row = self.walkable[min(h - 1, int(y * h))]
        xs = np.linspace(x - half_width, x + half_width, 9)
        inside = (xs >= 0.0) & (xs < 1.0)
        if not inside.all():
            return False
        cols = np.minimum(w - 1, (xs * w).astype(int))
        return bool(row[cols[4]]) and float(row[cols].mean()) >= FEET_SHARE

    def why_not(self, x: float, y: float) -> int:
        """The label at (x, y), GROUND where feet may go (fractions of this map)."""
        h, w = self.labels.shape
        yy, xx = min(h - 1, max(0, int(y * h))), min(w - 1, max(0, int(x * w)))
        if self.confidence < MIN_CONFIDENCE:
            return UNSURE
        return int(self.labels[yy, xx])


def texture(lab: Image8) -> Floats:
    """Local texture: |Laplacian| of the lightness, averaged over 7x7 pixels."""
    light = lab[..., 0].astype(np.float32)
    return np.asarray(cv2.blur(np.abs(cv2.Laplacian(light, cv2.CV_32F, ksize=3)), (7, 7)))


def busy_top(busy: Floats) -> bool:
    """A top third with this much texture is not a backdrop (see BUSY_TOP)."""
    return float(busy[: max(1, busy.shape[0] // 3)].mean()) > BUSY_TOP


def sky(lab: Image8, busy: Floats, sky_colour: BoolMask) -> BoolMask:
    """Smooth, sky-coloured pixels connected to the frame's top."""
    candidate = (sky_colour & (busy < SKY_SMOOTH)).astype(np.uint8)
    count, parts = cv2.connectedComponents(candidate, connectivity=4)
    if count <= 1:
        return np.zeros(candidate.shape, bool)
    touching = np.unique(parts[0][parts[0] > 0])
    return np.isin(parts, touching)


def backdrop(lab: Image8, busy: Floats, sky_colour: BoolMask) -> Image8:
    """Labels of a photo without a horizon. A studio backdrop is one surface from the top of
    the frame to its floor: GROUND. A busy top is a real place whose geometry was not read,
    a busy bottom a close-up (grass): UNSURE. Where the top is a wall or a sky (white office
    walls, a hazy sky), the frame's bottom is ground only where that same smooth surface
    continues down to it, as a seamless studio wall or an empty room's white floor does; what
    interrupts it (a desk's or a cabinet's edge, a chair, a hill under the sky) is UNSURE: the
    photographer's answer is a medium shot, not feet on furniture or on a far slope."""
    h = lab.shape[0]
    if busy_top(busy) or float(busy[int(0.8 * h):].mean()) > BUSY_BOTTOM:
        return np.full(lab.shape[:2], UNSURE, np.uint8)
    calm = sky(lab, busy, sky_colour)
    if float(calm[: max(1, h // 3)].mean()) < WALL_SHARE:
        return np.full(lab.shape[:2], GROUND, np.uint8)  # a coloured studio set
    return np.where(calm, GROUND, UNSURE).astype(np.uint8)


def segments(gray: Image8) -> Floats | None:
    """Straight segments (x0, y0, x1, y1) from OpenCV's line segment detector (LSD), which
    finds faint, short edges a Hough transform misses on real photos (a road's edges, tiles)."""
    detected = cv2.createLineSegmentDetector().detect(gray)[0]
    return None if detected is None else detected[:, 0, :].astype(np.float64)


def long_edge(found: Floats | None, shape: tuple[int, int]) -> float | None:
    """The highest row (a fraction) below the middle of a `shape` (rows, columns) image where
    straight, nearly horizontal segments of `found` cover LONG_EDGE of the width together."""
    if found is None:
        return None
    h, w = shape
    dx, dy = found[:, 2] - found[:, 0], found[:, 3] - found[:, 1]
    middle = (found[:, 1] + found[:, 3]) / 2
    flat = (np.abs(dx) >= 0.05 * w) & (np.abs(dy) < 0.05 * np.abs(dx)) & (middle > h / 2)
    left = np.clip(np.minimum(found[:, 0], found[:, 2]), 0, w - 1).astype(int)
    right = np.clip(np.maximum(found[:, 0], found[:, 2]), 0, w - 1).astype(int)
    for row in np.sort(middle[flat]):
        covered = np.zeros(w, bool)
        for i in np.nonzero(flat & (np.abs(middle - row) <= EDGE_ROWS * h))[0]:
            covered[left[i] : right[i] + 1] = True
        if covered.mean() >= LONG_EDGE:
            return float(row / h)
    return None


def islands(dry: BoolMask) -> BoolMask:
    """Dry patches in water: parts of `dry` (below the horizon, not water) that neither reach
    the frame's bottom (where the camera stands) nor span its width (a far shore). Foam, a
    boat, a shoal of fish under the surface: nothing verified to stand on."""
    h, w = dry.shape
    count, parts, stats, _ = cv2.connectedComponentsWithStats(dry.astype(np.uint8), connectivity=4)
    keep = np.zeros(count, bool)
    keep[np.unique(parts[h - 1][dry[h - 1]])] = True
    keep |= stats[:, cv2.CC_STAT_WIDTH] >= 0.9 * w
    keep[0] = True  # the background (not dry): left as it is
    return np.asarray(~keep[parts])


def walkable(
    lab: Image8,
    horizon: float | None,
    water_top: float | None,
    source: str,
    sky_colour: BoolMask,
    blue: BoolMask,
    reach: float,
    edge: float | None = None,
) -> Ground:
    """The ground map of a thumbnail whose Lab is `lab`, given the photo's cues (rows as
    fractions of its height). `reach`: how far below the horizon the nearest standing place
    must be for a full-length person of a useful size (scene.MIN_HEIGHT at the low camera's
    scale); `sky_colour` is horizon.sky_colour per pixel, `blue` daylight-bright water colour.
    Below a horizon, blue is water (the sea, a pool, a lake mirror the sky; floors, sand,
    grass and paving are not blue in daylight), and so is the underwater half of a split
    shot. `edge`: long_edge() of a photo without a horizon: below it, a tabletop (UNSURE)."""
    h, w = lab.shape[:2]
    rows = (np.arange(h, dtype=np.float32)[:, None] + 1.0) / h  # each row's lower edge
    labels = np.full((h, w), GROUND, np.uint8)
    busy = texture(lab)
    water_rows = np.zeros((h, w), bool)
    if water_top is not None:
        water_rows[:] = rows >= water_top
    if horizon is None:
        labels[:] = backdrop(lab, busy, sky_colour)
        if edge is not None:
            labels[np.broadcast_to(rows > edge, (h, w))] = UNSURE
    else:
        below = np.broadcast_to(rows >= horizon, (h, w))
        # Blue regions, not single pixels: a blue shirt on a bench is not a lake.
        water = water_rows | (below & (cv2.blur(blue.astype(np.float32), (9, 9)) > 0.6))
        labels[np.broadcast_to(rows < horizon + reach, (h, w))] = BEYOND
        labels[water | islands(below & ~water)] = WATER  # what is there, before how far
        labels[sky(lab, busy, sky_colour)] = SKY
    labels[water_rows] = WATER
    return Ground(labels, CONFIDENCE.get(source, MIN_CONFIDENCE))
