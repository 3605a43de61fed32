"""The camera's height above the ground a person would stand on, from a ruler in the photo.

Why it matters: a standing adult whose feet are at row y_g is ADULT / C times (y_g - horizon)
tall for a camera C metres up (scene.standing_height), so a photo taken from table height
draws people twice as tall as the eye-level default, one from a 4th floor a tenth as tall.

The photo's geometry alone cannot give C: a corridor seen from eye level and a street seen
from a roof make the same lines, so a cue needs something of known height (Hoiem, Efros and
Hebert, "Putting objects in perspective", 2006): an object H metres tall standing at row y_b
is (y_b - horizon) * H / C pixels tall, whatever the lens, so C = H * (y_b - horizon) / its
height in pixels. The one ruler found reliably on a CPU in a millisecond is a door: two long
vertical edges of one height, standing side by side at a door's proportions, from the floor
(below the horizon) up past eye level. Measured on the fixtures (horizon as detected):
terrace-01 (table height, labelled 0.6-1.0 m) 0.84 m from its rustic door; nothing else in the
labelled scenes (the 12 with masks, the 7 with polygons), nor in the 13 of 45 held-out photos
(demo images of Apache-2.0, MIT and BSD-2 repositories) where a horizon is found, was taken for one.

What failed, and is not to be tried again as it stood (measured on the labelled scenes, with
street-01 from a 4th-5th floor, terrace-01 from table height and eye-level rooms and fields):
- converging verticals (a camera looking down): street-01 -0.007..+0.003, as level as
  eye-level scenes (-0.07..+0.17);
- vertical edges' length below/above the horizon: 1.36 on street-01, 1.17-1.73 in rooms
  (walls reach as far below eye level as the street's lower storeys);
- steep converging lines below the horizon: as common on floorboards, a beach and a field;
- the length of vertical segments below the horizon over their depth below it (H / C for
  things standing on the ground): 90th percentile 0.56 on street-01, 0.55-0.74 on the
  terrace, a beach and a room (facade details are not things on the ground);
- periodic structure (storeys) below the horizon at the frame's sides: bookshelves, steps,
  blinds and grass are as periodic (autocorrelation 0.4-0.5 on eye-level photos);
- window-shaped rectangles wholly below the horizon, stacked under ones above it (a facade
  continuing past eye level): street-01 3, a lobby's glass balustrade and stairs 21;
- things standing on the ground (Hoiem's H / C): non-ground runs between ground pixels
  below the horizon, the ground grown from the bottom's middle (Lab, median-blurred, 192 px):
  street-01's paving grows to 5% of the frame and gives one blob; eye-level fields, lobbies
  and streets give blobs with H / C of 0.05-0.25, as small as a 4th floor's would be.
Every geometric cue is blind to scale; a high camera needs a recognised ruler (people, cars,
windows), which no model shipped here detects. So this says nothing about high cameras: a
door wholly below eye level is not trusted (a window or a cabinet would read as one).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.arrays import Floats

# Metres: a door's height. Modern doors are 1.98-2.10, older and grander ones 2.3-2.7 (room-02's
# doorway, with its labelled horizon, reads 0.98 m at 2.05 for a labelled 1.4-1.8 m camera):
# between the two, either error stays within about 25%.
DOOR = 2.2
# A door's width over its height: single doors 0.38-0.5, a leaf of a double door included.
DOOR_SHAPE = (0.3, 0.65)
DOOR_TALL = 0.2  # of the photo's height: shorter edges are too coarse a ruler
VERTICAL = 84.0  # degrees from the horizontal: an edge this steep is vertical
PIECE = 0.05  # of the height: shorter vertical segments are texture, not an edge
PIECES = 80  # the longest vertical pieces looked at
SAME_X = 4.0  # pixels (at LINE_WIDTH): pieces this close sideways are one edge
GAP = 0.08  # of the height: pieces of one edge broken by a crossing board or a shadow
COVERED = 0.7  # of an edge's span, at least this is seen as segments
ALIGNED = 0.08  # of a door's height: its edges' tops and bottoms agree this closely
BELOW = 0.05  # of the height: a door's foot at least this far below the horizon
# A door read as showing a camera lower than this is something else: a window over a sill
# (measured: room-01's window, over a misread horizon, 0.33 m).
LOWEST = 0.5  # metres
AGREE = 1.5  # doors whose readings differ more than this factor are not trusted together


@dataclass(frozen=True)
class Edge:
    """A vertical edge: its column and its top and bottom rows (pixels), and how much of that
    span segments cover."""

    x: float
    top: float
    bottom: float
    seen: float

    @property
    def span(self) -> float:
        return self.bottom - self.top


def vertical_edges(segments: Floats, height: int) -> list[Edge]:
    """Long vertical edges: LSD's vertical pieces joined where they continue one another (an
    edge broken by a crossing board, a handle or a shadow), kept when DOOR_TALL of the
    photo's `height` long and mostly seen."""
    dx, dy = segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1]
    steep = np.degrees(np.arctan2(np.abs(dy), np.abs(dx))) > VERTICAL
    steep &= np.abs(dy) > PIECE * height
    # The longest pieces: a door's edges are among them, grass blades are not (time).
    pieces = segments[steep]
    pieces = pieces[np.argsort(-np.abs(pieces[:, 3] - pieces[:, 1]))[:PIECES]]
    tops = np.minimum(pieces[:, 1], pieces[:, 3])
    bottoms = np.maximum(pieces[:, 1], pieces[:, 3])
    xs = (pieces[:, 0] + pieces[:, 2]) / 2
    spans = sorted(zip(xs, tops, bottoms, strict=True), key=lambda p: p[1] - p[2])  # longest first
    edges = [Edge(float(x), float(t), float(b), float(b - t)) for x, t, b in spans]
    gap = GAP * height
    joined = True
    while joined:  # the longest pieces first; joining may let an edge reach another piece
        joined = False
        kept: list[Edge] = []
        for piece in edges:
            for i, edge in enumerate(kept):
                if (abs(edge.x - piece.x) <= SAME_X and piece.top <= edge.bottom + gap
                        and piece.bottom >= edge.top - gap):
                    seen = edge.seen + piece.seen
                    x = (edge.x * edge.seen + piece.x * piece.seen) / seen
                    kept[i] = Edge(x, min(edge.top, piece.top), max(edge.bottom, piece.bottom),
                                   seen)
                    joined = True
                    break
            else:
                kept.append(piece)
        edges = kept
    return [e for e in edges if e.span > DOOR_TALL * height and e.seen > COVERED * e.span]


def door_readings(segments: Floats | None, shape: tuple[int, int], horizon: float) -> list[float]:
    """The camera's height (metres) read off each door in view: a pair of vertical edges of one
    height at a door's proportions, whose foot is on the ground below the horizon (`horizon`,
    a fraction of the height) and whose top is above it. `segments`: ground.segments() of a
    gray image `shape` (rows, columns) in size."""
    if segments is None:
        return []
    height = shape[0]
    eye = horizon * height
    edges = sorted(vertical_edges(segments, height), key=lambda e: e.x)
    readings = []
    for i, left in enumerate(edges):
        for right in edges[i + 1:]:
            tall = (left.span + right.span) / 2
            top, foot = (left.top + right.top) / 2, (left.bottom + right.bottom) / 2
            aligned = (abs(left.top - right.top) <= ALIGNED * tall
                       and abs(left.bottom - right.bottom) <= ALIGNED * tall)
            shaped = DOOR_SHAPE[0] <= (right.x - left.x) / tall <= DOOR_SHAPE[1]
            # Standing in view: the foot below the horizon and above the frame's bottom (a cut
            # edge is no ruler), the top above eye level and below the frame's top.
            standing = eye + BELOW * height < foot < 0.98 * height and 0.01 * height < top < eye
            if aligned and shaped and standing:
                readings.append(DOOR * (foot - eye) / tall)
    return [r for r in readings if r >= LOWEST]


def camera_height(
    segments: Floats | None, shape: tuple[int, int], horizon: float | None
) -> float | None:
    """The camera's height in metres from the doors in view (their median), or None when no
    door is found, or the doors disagree: the caller's default (scene.EYE_LEVEL) stands."""
    if horizon is None:
        return None
    readings = door_readings(segments, shape, horizon)
    if not readings or max(readings) > AGREE * min(readings):
        return None
    return float(np.median(readings))
