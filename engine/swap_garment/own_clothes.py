"""Step 4 of dressing a model: the model's own clothes, taken off where the new garment does
not reach. The own top turns to skin; around a dress or a new bottom the own bottoms turn to
legs below its hem and to backdrop beside it.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from engine import models
from engine.arrays import BoolMask, Float32, Floats, Mask
from engine.digital_model import Person
from engine.swap_garment.body import body_axes, expected_region, hair_mask
from engine.swap_garment.classify import TOP
from engine.swap_garment.fit import HIP_VISIBILITY

# The model's own top (what the new garment replaces): not skin, inside the person, in the upper
# body, and close in colour to the cloth on the chest (lightness counts little: folds shade it);
# the parts connected to the chest. Jeans and skirts differ in colour and stay.
OWN_TOP_DE = 22.0
# Lightness weighs this much (squared) in that distance: a white top's side in shadow is grey,
# 60-120 levels darker but of the same (lack of) colour.
OWN_TOP_LIGHTNESS = 0.03
OWN_TOP_SKIN = 0.3  # below this skin weight a pixel may be cloth


def own_top(model: Person) -> BoolMask:
    """The model's own top (bool, model's size), found from the chest's cloth colour."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    across, down, torso = body_axes(model)
    shoulder_y = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].min())
    hip_y = float(p[[models.LEFT_HIP, models.RIGHT_HIP], 1].max())
    y0, y1 = int(max(0, shoulder_y - 0.35 * torso)), int(min(h, hip_y + 0.15 * torso))
    cloth = (model.subject.cutout.alpha > 0.5) & (model.skin < OWN_TOP_SKIN)
    chest = expected_region(model, TOP) & cloth
    if y1 - y0 < 8 or int(np.count_nonzero(chest)) < 200:
        return np.zeros((h, w), bool)
    lab = cv2.cvtColor(model.rgb[y0:y1], cv2.COLOR_RGB2LAB).astype(np.float32)
    reference = np.median(lab[chest[y0:y1]], axis=0)
    diff = lab - reference
    distance = np.sqrt(
        OWN_TOP_LIGHTNESS * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2
    )
    near = (distance < OWN_TOP_DE) & cloth[y0:y1]
    near &= hair_mask(model)[y0:y1] < 0.5
    count, labels = cv2.connectedComponents(near.astype(np.uint8))
    seeds = np.unique(labels[chest[y0:y1] & near])
    seeds = seeds[seeds > 0]
    top = np.isin(labels, seeds).astype(np.uint8)
    # Its edge (a strap's rim in the light, cloth mixed with backdrop): the cloth just beside it.
    top = cv2.dilate(top, np.ones((5, 5), np.uint8)) & cloth[y0:y1].astype(np.uint8)
    out = np.zeros((h, w), bool)
    out[y0:y1] = top > 0
    return out


def bare_skin(
    model: Person, where: BoolMask, base: Float32 | None = None, detail: float = 1.5
) -> Float32:
    """The model photo with skin where `where` (bool) is, float32 RGB.

    The colour is spread in from the model's own skin around it (a normalised blur at a quarter
    of the size, wide enough to reach across a chest: the neck's and arms' tones meet smoothly,
    no flat patch), under the light the covered cloth had (its lightness over its local
    average: folds and fall-off carry over, the cloth's own brightness does not). Worked out in
    the box around `where` (grown by a shoulder width, where the skin it spreads from is).
    `base` (float32 RGB) is painted on instead of the photo; `detail` is the blur (pixels) of
    the light taken over: wider for jeans, whose creases are the cloth's, not the body's."""
    out = model.rgb.astype(np.float32) if base is None else base.copy()
    skin_all = (model.skin > 0.9) & ~where
    if not where.any() or int(np.count_nonzero(skin_all)) < 200:
        return out
    h, w = where.shape
    p = model.pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    x, y, bw, bh = cv2.boundingRect(where.astype(np.uint8))
    grow = int(width)
    x0, y0 = max(0, x - grow), max(0, y - grow)
    x1, y1 = min(w, x + bw + grow), min(h, y + bh + grow)
    box = (slice(y0, y1), slice(x0, x1))
    rgb, inside, skin = out[box], where[box], skin_all[box]
    if int(np.count_nonzero(skin)) < 200:
        return out
    ch, cw = inside.shape
    sw, sh = max(8, cw // 4), max(8, ch // 4)
    def shrink(image: Floats) -> NDArray[Any]:
        return np.asarray(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA))

    known = shrink(skin.astype(np.float32))
    sigma = max(2.0, 0.2 * width / 4)
    weight = cv2.GaussianBlur(known, (0, 0), sigma)
    spread = cv2.GaussianBlur(shrink(rgb * skin[..., None]), (0, 0), sigma) / np.maximum(
        weight, 1e-4
    )[..., None]
    median = np.median(model.rgb[skin_all].astype(np.float32), axis=0)
    # Far from any skin the blur says little: the median skin colour there.
    trust = np.clip(weight / 0.05, 0.0, 1.0)[..., None]
    spread = spread * trust + median[None, None, :] * (1.0 - trust)
    grey = cv2.cvtColor(model.rgb[box], cv2.COLOR_RGB2GRAY).astype(np.float32)
    cloth = shrink(inside.astype(np.float32))
    small_grey = shrink(grey)
    local = cv2.GaussianBlur(small_grey * cloth, (0, 0), 0.3 * width / 4) / (
        cv2.GaussianBlur(cloth, (0, 0), 0.3 * width / 4) + 1e-3
    )
    def grow_up(image: NDArray[Any]) -> NDArray[Any]:
        return np.asarray(cv2.resize(image, (cw, ch), interpolation=cv2.INTER_LINEAR))

    # Full size only where the cloth is (its own box, a few pixels wider for the soft edge).
    inner = (slice(max(0, y - y0 - 4), y - y0 + bh + 4), slice(max(0, x - x0 - 4), x - x0 + bw + 4))
    light = np.clip(
        cv2.GaussianBlur(grey[inner], (0, 0), detail) / np.maximum(grow_up(local)[inner], 1.0),
        0.75 if detail <= 1.5 else 0.9,
        1.1 if detail <= 1.5 else 1.05,
    )
    fill = grow_up(spread)[inner] * (light**0.8)[..., None]
    edge = inside[inner]
    soft = cv2.GaussianBlur(edge.astype(np.float32), (0, 0), 1.0)
    # Grown by a pixel so the soft edge of the old cloth (a mix of cloth and skin) goes too.
    soft = np.maximum(soft, cv2.dilate(edge.astype(np.uint8), np.ones((3, 3), np.uint8)))
    target = rgb[inner]
    rgb[inner] = target + (fill - target) * soft[..., None]
    out[box] = rgb
    return out


# The model's own bottoms (jeans, a skirt): cloth inside the person from the waist down, not
# skin, not the own top, close in colour to the cloth between the hip joints (lightness counts
# little: jeans fade and fold), in one piece with it. Above the ankles only: shoes stay.
OWN_BOTTOM_DE = 25.0
OWN_BOTTOM_LIGHTNESS = 0.03
# The band read for the bottoms' colour: between the hip joints, from the hip line down this
# share of the torso's length (the crotch of jeans, the front of a skirt; tops end above it).
OWN_BOTTOM_SEED = 0.2
# The waistband can ride this share of the torso above the hip joints (a high rise).
OWN_BOTTOM_RISE = 0.5


def own_bottoms(model: Person) -> BoolMask:
    """The model's own bottoms (bool, model's size), found from the cloth colour at the top of
    the thighs. Found without the own top: pale jeans are near a white top's colour, and the
    top's search (down to below the hips) takes their waistband; the bottoms win there."""
    h, w = model.rgb.shape[:2]
    p, seen = model.pose.points, model.pose.visibility
    none = np.zeros((h, w), bool)
    hips = p[[models.LEFT_HIP, models.RIGHT_HIP]]
    if seen[[models.LEFT_HIP, models.RIGHT_HIP]].min() < HIP_VISIBILITY or hips[:, 1].max() >= h:
        return none
    _, _, torso = body_axes(model)
    hip_y = float(hips[:, 1].mean())
    y0 = int(np.clip(hip_y - OWN_BOTTOM_RISE * torso, 0, h))
    y1 = h
    ankles = [models.LEFT_ANKLE, models.RIGHT_ANKLE]
    if seen[ankles].max() >= 0.5 and p[ankles, 1].min() < h:
        # Shoes start about at the ankle joints: the bottoms are read down to a little above.
        y1 = int(np.clip(p[ankles, 1].min() - 0.05 * torso, y0, h))
    if y1 - y0 < 8:
        return none
    cloth = (model.subject.cutout.alpha > 0.5) & (model.skin < OWN_TOP_SKIN)
    seed = np.zeros((h, w), bool)
    x_lo, x_hi = sorted(float(v) for v in hips[:, 0])
    seed[
        int(max(y0, hip_y)) : int(min(y1, hip_y + OWN_BOTTOM_SEED * torso)),
        int(max(0, x_lo)) : int(min(w, x_hi + 1)),
    ] = True
    seed &= cloth
    if int(np.count_nonzero(seed)) < 200:
        return none
    lab = cv2.cvtColor(model.rgb[y0:y1], cv2.COLOR_RGB2LAB).astype(np.float32)

    def distance(reference: Floats) -> Floats:
        diff = lab - reference
        weighted = OWN_BOTTOM_LIGHTNESS * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2
        return np.asarray(np.sqrt(weighted))

    to_bottoms = distance(np.median(lab[seed[y0:y1]], axis=0))
    near = (to_bottoms < OWN_BOTTOM_DE) & cloth[y0:y1]
    chest = expected_region(model, TOP) & cloth
    if int(np.count_nonzero(chest)) >= 200:
        # Pale jeans against a white top: above the hip line (where a top can reach) a pixel
        # nearer the chest's cloth is the top's. Lower down, faded jeans are still jeans.
        chest_lab = cv2.cvtColor(model.rgb[chest][None], cv2.COLOR_RGB2LAB)[0]
        nearer_top = to_bottoms >= distance(np.median(chest_lab.astype(np.float32), axis=0))
        nearer_top[int(max(0, hip_y - y0)) :] = False
        near &= ~nearer_top
    _, labels = cv2.connectedComponents(near.astype(np.uint8))
    seeds = np.unique(labels[seed[y0:y1] & near])
    seeds = seeds[seeds > 0]
    found = np.isin(labels, seeds).astype(np.uint8)
    # Its rim (cloth mixed with backdrop or skin): the cloth just beside it.
    found = cv2.dilate(found, np.ones((5, 5), np.uint8)) & cloth[y0:y1].astype(np.uint8)
    out = none.copy()
    out[y0:y1] = found > 0
    return out


# A column's lowest garment pixel is the hem if it is within this share of the garment's height
# of the lowest row (a slanted or curved hem); higher up it is a crotch or a side slit.
HEM_SPREAD = 0.12
# Legs under a skirt: their width just below the old hem, grown by this share of the shoulders'
# width (thighs widen upward).
LEG_GROW = 0.06
LEG_DETAIL = 6.0  # the blur (pixels) of the old bottoms' light laid onto the legs


def uncovered_bottoms(
    model: Person, bottoms: BoolMask, coverage: Mask
) -> tuple[BoolMask, BoolMask]:
    """Where the model's own bottoms would still show around a dress or a new bottom, split in
    two (bool masks): (skin, gone). Above the new garment (a high waist over a low skirt) and
    below its hem (jeans below a short dress), the body is there: belly and legs, painted as
    skin. Beside it and between trouser legs, the new garment is the body's outline: what stuck
    out of it is backdrop. Under a skirt the legs are where they come out below it."""
    h, w = coverage.shape
    placed = coverage > 0.5
    left = bottoms & ~placed
    rows = np.nonzero(placed.any(axis=1))[0]
    none = np.zeros_like(left)
    if not left.any() or len(rows) == 0:
        return left, none
    top, bottom = int(rows[0]), int(rows[-1])
    y = np.arange(h)[:, None]
    # Per column, the lowest garment pixel; a hem only near the garment's lowest row.
    lowest = np.where(placed.any(axis=0), h - 1 - np.argmax(placed[::-1], axis=0), -1)
    hem = np.where(lowest >= bottom - HEM_SPREAD * (bottom - top), lowest, h)
    below = left & (y > hem[None, :])
    # Rows past the garment's ends in columns it does not reach: a hem's corner, a waist's side.
    below |= left & (y > bottom)
    above = left & (y < top)
    legs = below
    old_rows = np.nonzero(bottoms.any(axis=1))[0]
    old_end = int(old_rows[-1])
    if old_end < h - 8:
        # The old bottoms end in the frame (a skirt, shorts): the legs come out below them.
        # (The person's matte there, not the skin mask: legs in the skirt's shadow are dark.)
        band = (model.subject.cutout.alpha[old_end + 1 : min(h, old_end + 12)] > 0.5).all(axis=0)
        if band.any():
            p = model.pose.points
            width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
            grow = max(1, int(LEG_GROW * width))
            columns = cv2.dilate(band.astype(np.uint8)[None], np.ones((1, 2 * grow + 1), np.uint8))
            legs = below & (columns[0] > 0)[None, :]
    return above | legs, left & ~(above | legs)
