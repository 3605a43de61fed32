"""Step 2 assembled: the garment warped onto the model as layers (the body, then each sleeve),
with the slits the two fits open along the shoulder seams closed in the cloth's colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from core.engine import NoGarmentFound
from engine import models, quality
from engine.analysis import Subject
from engine.arrays import BoolMask, Float32, Floats, Image8, Mask
from engine.digital_model import Person
from engine.swap_garment.classify import BOTTOM, UNKNOWN, GarmentClass, classify_garment
from engine.swap_garment.fit import (
    GRID_STEP,
    Fit,
    apply_matrix,
    bottom_transform,
    sleeve_transform,
    torso_fit,
    torso_transform,
)
from engine.swap_garment.shape import garment_shape, inside_back, neck_opening


def _warp(image: NDArray[Any], matrix: Floats, size: tuple[int, int], linear: bool) -> NDArray[Any]:
    return np.asarray(cv2.warpAffine(
        image,
        matrix[:2].astype(np.float32),
        size,
        flags=cv2.INTER_LINEAR if linear else cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    ))


def source_box(alpha: Mask) -> tuple[int, int, int, int] | None:
    """The layer's box in the garment photo (x0, y0, x1, y1), 2 px wider each side so edge
    interpolation reads real neighbours; None for an empty layer."""
    x, y, bw, bh = cv2.boundingRect((alpha > 0.002).astype(np.uint8))
    if bw == 0 or bh == 0:
        return None
    sh, sw = alpha.shape
    return max(0, x - 2), max(0, y - 2), min(sw, x + bw + 2), min(sh, y + bh + 2)


def warp_layer(
    rgb: Image8, alpha: Mask, matrix: Floats, size: tuple[int, int]
) -> tuple[Float32, Float32]:
    """Warp colour and matte together, premultiplied: the colour at a soft edge is the garment's,
    never a mix with the product photo's backdrop (which would draw a light outline).

    Only the layer's own box is read and written (a sleeve is a small part of the frame), which
    keeps the float warps cheap."""
    w, h = size
    colour = np.zeros((h, w, 3), np.float32)
    matte = np.zeros((h, w), np.float32)
    source = source_box(alpha)
    if source is None:
        return colour, matte
    sx0, sy0, sx1, sy1 = source
    corners = np.array([[sx0, sy0], [sx1, sy0], [sx0, sy1], [sx1, sy1]], np.float64)
    placed = corners @ matrix[:2, :2].T + matrix[:2, 2]
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in placed.min(axis=0))
    x1 = min(w, int(np.ceil(placed[:, 0].max())) + 2)
    y1 = min(h, int(np.ceil(placed[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return colour, matte
    # Source crop to destination box: shift in, apply, shift out.
    local = (
        np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        @ matrix
        @ np.array([[1, 0, sx0], [0, 1, sy0], [0, 0, 1]], np.float64)
    )
    crop_alpha = alpha[sy0:sy1, sx0:sx1]
    premultiplied = rgb[sy0:sy1, sx0:sx1].astype(np.float32) * crop_alpha[..., None]
    box = (x1 - x0, y1 - y0)
    warped = _warp(premultiplied, local, box, True)
    warped_alpha = _warp(crop_alpha, local, box, True)
    colour[y0:y1, x0:x1] = np.clip(warped / np.maximum(warped_alpha, 1e-3)[..., None], 0, 255)
    matte[y0:y1, x0:x1] = warped_alpha
    return colour, matte


def warp_layer_fit(
    rgb: Image8, alpha: Mask, fit: Fit, size: tuple[int, int]
) -> tuple[Float32, Float32]:
    """`warp_layer` through a smooth fit: the backward map (model pixel to garment pixel) is
    solved on a coarse grid over the layer's box and interpolated, then colour and matte are
    remapped together, premultiplied."""
    w, h = size
    colour = np.zeros((h, w, 3), np.float32)
    matte = np.zeros((h, w), np.float32)
    layer_box = source_box(alpha)
    if layer_box is None:
        return colour, matte
    sx0, sy0, sx1, sy1 = layer_box
    # The box the layer lands in: its source box's outline, mapped.
    t = np.linspace(0.0, 1.0, 9)
    outline = np.concatenate(
        [
            np.stack([sx0 + t * (sx1 - sx0), np.full_like(t, sy0)], axis=1),
            np.stack([sx0 + t * (sx1 - sx0), np.full_like(t, sy1)], axis=1),
            np.stack([np.full_like(t, sx0), sy0 + t * (sy1 - sy0)], axis=1),
            np.stack([np.full_like(t, sx1), sy0 + t * (sy1 - sy0)], axis=1),
        ]
    )
    placed = fit.apply(outline)
    x0, y0 = (max(0, int(np.floor(v)) - 4) for v in placed.min(axis=0))
    x1 = min(w, int(np.ceil(placed[:, 0].max())) + 4)
    y1 = min(h, int(np.ceil(placed[:, 1].max())) + 4)
    if x1 <= x0 or y1 <= y0:
        return colour, matte
    bw, bh = x1 - x0, y1 - y0
    gw, gh = max(2, -(-bw // GRID_STEP) + 1), max(2, -(-bh // GRID_STEP) + 1)
    # Grid nodes where cv2.resize's linear interpolation puts them (pixel centres scaled), so
    # the interpolated map is exact at the nodes.
    gx = x0 + (np.arange(gw) + 0.5) * bw / gw - 0.5
    gy = y0 + (np.arange(gh) + 0.5) * bh / gh - 0.5
    nodes = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2)
    source = fit.apply(nodes, inverse=True).reshape(gh, gw, 2).astype(np.float32)
    map_x = cv2.resize(source[..., 0] - sx0, (bw, bh), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(source[..., 1] - sy0, (bw, bh), interpolation=cv2.INTER_LINEAR)
    crop_alpha = np.ascontiguousarray(alpha[sy0:sy1, sx0:sx1])
    premultiplied = rgb[sy0:sy1, sx0:sx1].astype(np.float32) * crop_alpha[..., None]

    def remap(image: NDArray[Any]) -> NDArray[Any]:
        return np.asarray(cv2.remap(
            image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        ))

    warped, warped_alpha = remap(premultiplied), remap(crop_alpha)
    colour[y0:y1, x0:x1] = np.clip(warped / np.maximum(warped_alpha, 1e-3)[..., None], 0, 255)
    matte[y0:y1, x0:x1] = warped_alpha
    return colour, matte


@dataclass(frozen=True)
class Dressing:
    """A garment placed on the model: the layers drawn in order, and what they cover."""

    kind: GarmentClass
    layers: list[tuple[Float32, Float32]]  # (float32 rgb, float32 alpha), model's size
    coverage: Mask  # float32 0..1, all layers together


def place_garment(garment: Subject, model: Person) -> Dressing:
    """Classify the garment and place it: tops, dresses and outerwear from the shoulders (the
    sleeves along the arms), bottoms from the waist; NoGarmentFound (refunded) for anything
    else, with the reason."""
    alpha = garment.cutout.alpha
    kind = classify_garment(alpha)
    if kind.kind == UNKNOWN:
        raise NoGarmentFound(
            "We could not tell what kind of garment this is (a top, trousers or a skirt, a dress "
            f"or a jacket: {kind.reason}); use a photo of one garment alone, laid flat or on a "
            "ghost mannequin."
        )
    h, w = model.rgb.shape[:2]
    layers: list[tuple[Float32, Float32]] = []
    if kind.kind == BOTTOM:
        matrix = bottom_transform(alpha, model)
        layers.append(warp_layer(garment.cutout.rgb, alpha, matrix, (w, h)))
        return Dressing(kind, layers, layers[0][1])
    shape = garment_shape(alpha)
    torso_m = torso_transform(shape, model)
    collar = neck_opening(alpha, shape)
    fit = torso_fit(shape, model, collar)
    body_alpha = alpha.copy()
    back = inside_back(alpha, shape)
    if back is not None:
        # Feathered a little: the new neckline edge is as soft as the garment's own edges.
        body_alpha *= 1.0 - cv2.GaussianBlur(back.astype(np.float32), (0, 0), 1.5)
    if shape.sleeves is not None:
        for sleeve in shape.sleeves:
            # Grown a little so the sleeve's soft outer edge goes with it; left behind, it
            # would draw a faint outline where the sleeve lay in the flat lay.
            grown = cv2.dilate(sleeve.mask.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
            body_alpha[grown] = 0.0
    layers.append(warp_layer_fit(garment.cutout.rgb, body_alpha, fit, (w, h)))
    if shape.sleeves is not None:
        for sleeve, left in zip(shape.sleeves, (True, False), strict=True):
            matrix = sleeve_transform(sleeve, torso_m, model, left)
            # The sleeve stays on its seam where the smooth fit moved the shoulder.
            pivot = np.asarray(sleeve.pivot, np.float64)[None]
            shift = fit.apply(pivot)[0] - apply_matrix(torso_m, pivot)[0]
            matrix = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ matrix
            grown = cv2.dilate(sleeve.mask.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
            sleeve_alpha = np.where(grown, alpha, 0.0).astype(np.float32)
            layers.append(warp_layer(garment.cutout.rgb, sleeve_alpha, matrix, (w, h)))
        close_seams(layers, model)
    return Dressing(kind, layers, np.maximum.reduce([a for _, a in layers]))


# Gaps between the body and a sleeve up to this wide (in shoulder widths) are closed: the two
# are warped apart, and where the smooth fit and the sleeve's turn disagree a slit opened along
# the shoulder seam, showing the model's skin or old top through it (00055, 00126, 03244 and
# 049805 on every model measured 2-10 px wide at 768 px).
SEAM_CLOSE = 0.08


def seam_gaps(
    layers: list[tuple[Float32, Float32]], model: Person, size: float
) -> tuple[tuple[slice, slice], BoolMask]:
    """The gaps, up to `size` shoulder widths wide, between the body layer (first) and the
    sleeve layers: (the window they were looked for in, a bool mask of that window)."""
    p = model.pose.points
    shoulders = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    reach = max(3, int(size * shoulders) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    body_alpha = layers[0][1]
    sleeves = np.maximum.reduce([a for _, a in layers[1:]])
    union = np.maximum(body_alpha, sleeves)
    box = source_box(union)
    if box is None:
        return (slice(0, 0), slice(0, 0)), np.zeros((0, 0), bool)
    pad = 2 * reach
    h, w = union.shape
    window = (slice(max(0, box[1] - pad), min(h, box[3] + pad)),
              slice(max(0, box[0] - pad), min(w, box[2] + pad)))
    solid = (union[window] > 0.5).astype(np.uint8)
    closed = cv2.morphologyEx(solid, cv2.MORPH_CLOSE, kernel)
    near_body = cv2.dilate((body_alpha[window] > 0.5).astype(np.uint8), kernel)
    near_sleeve = cv2.dilate((sleeves[window] > 0.5).astype(np.uint8), kernel)
    return window, (closed > 0) & (solid == 0) & (near_body > 0) & (near_sleeve > 0)


def seam_gap_share(dressing: Dressing, model: Person) -> float | None:
    """The gaps between body and sleeves still open after close_seams (up to the quality
    gate's SEAM_CHECK wide, on the model), over the garment's area; None without sleeves."""
    if len(dressing.layers) < 2 or dressing.kind.kind == BOTTOM:
        return None
    window, gap = seam_gaps(dressing.layers, model, quality.SEAM_CHECK)
    placed = int(np.count_nonzero(dressing.coverage > 0.5))
    person = model.subject.cutout.alpha[window] > 0.5
    return int(np.count_nonzero(gap & person)) / max(placed, 1)


def close_seams(layers: list[tuple[Float32, Float32]], model: Person) -> None:
    """Fill the slits between the body layer (first) and the sleeve layers, in place: the body
    layer takes, in each gap, the garment's colour carried in from around it (inpainting)."""
    window, gap = seam_gaps(layers, model, SEAM_CLOSE)
    if not gap.any():
        return
    body_rgb, body_alpha = layers[0]
    shape = gap.shape
    # The garment's colour as drawn (layers in order, straight colour), carried into the gap.
    colour: NDArray[Any] = np.zeros((*shape, 3), np.float32)  # numpy's stubs mistype the sum
    cover = np.zeros(shape, np.float32)
    for rgb, alpha in layers:
        a = alpha[window][..., None]
        colour = colour * (1.0 - a) + rgb[window] * a
        cover = cover * (1.0 - a[..., 0]) + a[..., 0]
    straight = np.clip(colour / np.maximum(cover, 1e-3)[..., None], 0, 255).astype(np.uint8)
    filled = cv2.inpaint(straight, gap.astype(np.uint8), 3, cv2.INPAINT_TELEA)
    body_rgb[window][gap] = filled[gap].astype(np.float32)
    body_alpha[window][gap] = 1.0
