"""Soft alpha mattes at full resolution.

A coarse mask comes from a model (person) or from colour distance to a plain studio background
(garments, and the fine detail of people shot in a studio). It is refined with a guided filter
steered by the photo itself, so edges follow hair and sleeves instead of the coarse mask's
blocky outline. Edge colours are then decontaminated of the old background's spill.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import BoolMask, Float32, Floats, Image8, Ints, Mask

BORDER = 3  # pixels of the (small) frame used to estimate the backdrop
FIT_SIDE = 128  # the backdrop model is fitted on a copy this size
# Weights of (L, a, b) in the colour distance: chroma counts more, because shadows and light
# falloff on a studio backdrop change lightness far more than colour.
DISTANCE_WEIGHTS = np.array([0.8, 2.0, 2.0], np.float32)
# Around people lightness counts less still: the soft shadow a person casts on the sweep
# right beside the body is a lightness change, and counted fully it becomes a grey halo.
PERSON_WEIGHTS = np.array([0.35, 2.0, 2.0], np.float32)


@dataclass(frozen=True)
class Backdrop:
    """A model of the photo's studio backdrop: a smooth colour surface, if the backdrop is plain.

    Studio sweeps are rarely one flat colour (vignetting, a gradient toward the floor), so the
    backdrop is interpolated inward from the frame's four edges (a Coons patch over robust fits
    of each edge). A white shirt on a light-grey sweep differs from the sweep by only ~10 levels:
    against one mean colour that is lost in the gradient, against the patch it stands out. A 2-D
    polynomial fit was tried first; it overshoots in the middle of a vignetted frame.
    """

    lab: Float32  # (3,) float32 mean Lab of the backdrop
    surface: Float32  # (small h, small w, 3) float32 Lab of the backdrop everywhere
    noise: float  # how far the edge strays from its fit (weighted Lab, 90th percentile)
    plain: bool


def _edge_fit(values: Float32, usable: BoolMask) -> tuple[Float32, Float32, bool]:
    """Robust quadratic fit of one edge's colours (n, 3): fitted (n, 3), residuals, usable.

    `usable` marks points near the backdrop's dominant colour; a subject that runs off the
    frame (legs cut at the bottom) is not, and rounds of dropping the worst points keep what is
    left of it from bending the fit. An edge mostly covered by the subject is not usable.
    """
    n = len(values)
    t = np.linspace(-1.0, 1.0, n, dtype=np.float32)
    design = np.stack([np.ones_like(t), t, t * t], axis=1)
    keep = usable.copy()
    if keep.mean() < 0.4:
        return values, np.full(n, np.inf, np.float32), False
    fitted = values
    residual = np.zeros(n, np.float32)
    for _ in range(3):
        coef = np.linalg.lstsq(design[keep], values[keep], rcond=None)[0]
        fitted = (design @ coef).astype(np.float32)
        diff = (values - fitted) * np.sqrt(DISTANCE_WEIGHTS)
        residual = np.sqrt((diff * diff).sum(axis=1))
        keep = usable & (residual < max(4.0, 3.0 * float(np.median(residual[keep]))))
        if keep.sum() < 6:
            break
    return fitted, np.where(usable, residual, np.inf).astype(np.float32), True


def backdrop(rgb: Image8) -> Backdrop:
    h, w = rgb.shape[:2]
    scale = FIT_SIDE / max(h, w)
    sw, sh = max(8, round(w * scale)), max(8, round(h * scale))
    small = cv2.resize(rgb, (sw, sh), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    edges = {
        "top": lab[:BORDER].mean(axis=0),
        "bottom": lab[-BORDER:].mean(axis=0),
        "left": lab[:, :BORDER].mean(axis=1),
        "right": lab[:, -BORDER:].mean(axis=1),
    }
    # The backdrop's dominant colour; points far from it belong to the subject.
    ring = np.concatenate(list(edges.values()))
    dominant = np.median(ring, axis=0)

    def near(values: Float32) -> BoolMask:
        diff = (values - dominant) * np.sqrt(DISTANCE_WEIGHTS)
        return np.asarray(np.sqrt((diff * diff).sum(axis=1)) < 30.0)

    fits = {name: _edge_fit(values, near(values)) for name, values in edges.items()}
    residual = np.concatenate([fit[1] for fit in fits.values()])
    finite = residual[np.isfinite(residual)]
    close = float(np.mean(residual < 8.0))
    noise = float(np.percentile(finite, 80)) if len(finite) else 99.0
    # Plain: most of the frame's edge lies close to smooth colour curves.
    plain = close > 0.6 and noise < 10.0
    top, bottom = fits["top"][0], fits["bottom"][0]
    left, right = fits["left"][0], fits["right"][0]
    # An edge hidden by the subject is bridged from its neighbours' ends.
    if not fits["left"][2]:
        left = np.linspace(top[0], bottom[0], sh, dtype=np.float32)
    if not fits["right"][2]:
        right = np.linspace(top[-1], bottom[-1], sh, dtype=np.float32)
    if not fits["top"][2]:
        top = np.linspace(left[0], right[0], sw, dtype=np.float32)
    if not fits["bottom"][2]:
        bottom = np.linspace(left[-1], right[-1], sw, dtype=np.float32)
    u = np.linspace(0.0, 1.0, sw, dtype=np.float32)[None, :, None]
    v = np.linspace(0.0, 1.0, sh, dtype=np.float32)[:, None, None]
    corners = [
        (top[0] + left[0]) / 2,
        (top[-1] + right[0]) / 2,
        (bottom[0] + left[-1]) / 2,
        (bottom[-1] + right[-1]) / 2,
    ]
    surface = (
        (1 - v) * top[None]
        + v * bottom[None]
        + (1 - u) * left[:, None]
        + u * right[:, None]
        - (
            (1 - u) * (1 - v) * corners[0]
            + u * (1 - v) * corners[1]
            + (1 - u) * v * corners[2]
            + u * v * corners[3]
        )
    ).astype(np.float32)
    return Backdrop(dominant.astype(np.float32), surface, noise, plain)


def colour_distance_matte(
    rgb: Image8,
    back: Backdrop,
    weights: Float32 = DISTANCE_WEIGHTS,
    shadow_zone: Image8 | None = None,
) -> Mask:
    """Soft foreground probability from the distance to the backdrop surface.

    Inside `shadow_zone` (uint8 0/1, full size) a pixel that is the backdrop darkened is not
    foreground: see `shadow_distance`.
    """
    h, w = rgb.shape[:2]
    lab = np.asarray(cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB), np.uint8)
    # The surface is smooth: 8 bits are plenty, and 8-bit resizing and differencing are several
    # times cheaper than float at full size.
    surface8 = np.clip(back.surface + 0.5, 0, 255).astype(np.uint8)
    surface = np.asarray(cv2.resize(surface8, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)
    diff = cv2.absdiff(lab, surface).astype(np.float32)
    weighted = cv2.transform(cv2.multiply(diff, diff), weights[None, :])
    distance = cv2.sqrt(weighted)
    if shadow_zone is not None:
        rows = np.nonzero(shadow_zone.any(axis=1))[0]
        if len(rows):
            # Only the rows the zone covers (below the shoulders): the work is per pixel.
            top, bottom = int(rows[0]), int(rows[-1]) + 1
            shadow = shadow_distance(lab[top:bottom], surface[top:bottom])
            band = distance[top:bottom]
            np.copyto(band, np.minimum(band, shadow), where=shadow_zone[top:bottom] > 0)
    low = back.noise + 4.0
    high = low + 12.0
    return np.clip((distance - low) * (1.0 / (high - low)), 0.0, 1.0).astype(np.float32)


# A cast shadow or a floor's darker patch under the feet is the backdrop at this share of its
# lightness or more; darker than that it is taken for the subject (black shoes, trousers).
SHADOW_MIN_RATIO = 0.45


def shadow_distance(lab: Image8, surface: Image8) -> Mask:
    """Distance of Lab pixels (h, w, 3 uint8) to the backdrop surface (the same shape) as if in
    its shadow: the backdrop's colour scaled by the pixel's darkening k (lightness and chroma
    alike, as light falls off), compared in chroma only. Not darker, or darker than
    SHADOW_MIN_RATIO: infinitely far."""
    lightness = lab[..., 0].astype(np.float32)
    k = lightness / np.maximum(surface[..., 0].astype(np.float32), 1.0)
    da = lab[..., 1].astype(np.float32) - 128.0 - (surface[..., 1].astype(np.float32) - 128.0) * k
    db = lab[..., 2].astype(np.float32) - 128.0 - (surface[..., 2].astype(np.float32) - 128.0) * k
    distance = cv2.sqrt(
        cv2.add(cv2.multiply(da, da), cv2.multiply(db, db)) * float(DISTANCE_WEIGHTS[1])
    )
    outside = (k < SHADOW_MIN_RATIO) | (k > 1.0)
    distance[outside] = np.inf
    return np.asarray(distance, np.float32)


def clean_mask(mask: Floats, min_share: float = 0.02) -> Image8:
    """Keep the main blobs of a binary mask and fill their holes."""
    binary = (mask > 0.5).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if count <= 1:
        return np.zeros_like(binary)
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = np.zeros(count, np.uint8)
    keep[1:] = (areas >= areas.max() * min_share).astype(np.uint8)
    kept = keep[labels]
    # Close small gaps in the outline (a white garment's edge against a light backdrop is
    # faint in places) so hole filling sees one closed shape.
    size = max(3, (min(mask.shape) // 60) | 1)
    kept = cv2.morphologyEx(
        kept, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    )
    # Holes: background regions not connected to the frame's edge.
    inverse = (1 - kept).astype(np.uint8)
    flood = inverse.copy()
    padded = cv2.copyMakeBorder(flood, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
    filler = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(padded, filler, (0, 0), 0)
    holes = padded[1:-1, 1:-1]
    return np.maximum(kept, holes).astype(np.uint8)


def guided_filter(guide: Float32, source: Float32, radius: int, eps: float) -> Float32:
    """He et al.'s guided filter with the coefficients computed at half size ("fast" variant).

    The linear coefficients a, b vary smoothly, so computing them at half size and applying
    them to the full-size guide keeps edges as sharp as the full filter at a third of the cost.
    """
    h, w = guide.shape[:2]
    if min(h, w) < 400:
        return np.asarray(cv2.ximgproc.guidedFilter(guide, source, radius, eps), np.float32)
    size = (w // 2, h // 2)
    g = cv2.resize(guide, size, interpolation=cv2.INTER_AREA)
    p = cv2.resize(source, size, interpolation=cv2.INTER_AREA)
    r = max(1, radius // 2)
    box = (2 * r + 1, 2 * r + 1)
    mean_g = cv2.blur(g, box)
    mean_p = cv2.blur(p, box)
    var_g = cv2.blur(g * g, box) - mean_g * mean_g
    cov_gp = cv2.blur(g * p, box) - mean_g * mean_p
    a = cov_gp / (var_g + eps)
    b = mean_p - a * mean_g
    a = cv2.resize(cv2.blur(a, box), (w, h), interpolation=cv2.INTER_LINEAR)
    b = cv2.resize(cv2.blur(b, box), (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(cv2.add(cv2.multiply(a, guide), b), np.float32)


def refine(rgb: Image8, coarse: Floats) -> Mask:
    """Full-resolution soft alpha from a coarse mask (any resolution), guided by the photo."""
    h, w = rgb.shape[:2]
    if coarse.shape[:2] != (h, w):
        coarse = np.asarray(cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR))
    radius = max(2, int(round(min(h, w) / 180)))
    # A grey guide is four times cheaper than a colour one and follows hair just as well.
    guide = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) * (1.0 / 255.0)
    alpha = guided_filter(guide, coarse.astype(np.float32), radius, 1e-4)
    # Push the confident interior and exterior to exactly 1 and 0; keep the edge soft.
    alpha = np.clip((alpha - 0.08) * (1.0 / 0.84), 0.0, 1.0)
    return alpha.astype(np.float32)


def tighten(alpha: Mask, interior: Image8, distance: Mask) -> Mask:
    """On a plain backdrop, a pixel of the backdrop's own colour is not subject.

    The guided filter (and the models' blurry masks) leave a few pixels of partial alpha
    outside the true edge; those would show the old backdrop as a pale halo. Outside the sure
    interior, alpha is capped by (twice) the colour-distance matte. Inside it is left alone:
    a white shirt on a white sweep has backdrop-coloured pixels that are still shirt.
    """
    cap = np.minimum(distance * 2.0, 1.0)
    return np.where(interior > 0, alpha, np.minimum(alpha, cap)).astype(np.float32)


# The colour-line alpha is trusted only where subject and backdrop differ at least this much
# (RGB distance); closer than that (white on white) the matte is left as it is.
COLOUR_LINE_MIN = 40.0


def backdrop_rgb(back: Backdrop, width: int, height: int) -> Float32:
    """The backdrop surface as RGB (float32) at the given size."""
    surface8 = np.clip(back.surface + 0.5, 0, 255).astype(np.uint8)
    rgb = cv2.cvtColor(surface8, cv2.COLOR_LAB2RGB)
    return cv2.resize(rgb, (width, height), interpolation=cv2.INTER_LINEAR).astype(np.float32)


def colour_line_alpha(rgb: Image8, alpha: Mask, back: Backdrop) -> Mask:
    """On a plain backdrop, the edge's alpha from where each pixel's colour lies between the
    backdrop's colour B and the subject's own colour F nearby: a = (I-B).(F-B) / |F-B|^2.

    The colour-distance matte saturates: against a saturated backdrop a pixel a quarter
    subject is already "far" from the backdrop, so the matte's edge sits outside the true one
    and the new background shows a rim of the old backdrop's colour. The projection measures
    the mix itself. Where F and B are alike (white on white) the matte is kept.
    """
    # The band of partial alpha and a couple of pixels inward: the saturated matte says 1 there
    # where the photo is still part backdrop.
    partial = ((alpha > 0.02) & (alpha < 0.98)).astype(np.uint8)
    band = cv2.dilate(partial, np.ones((5, 5), np.uint8)) > 0
    ys, xs = np.nonzero(band & (alpha > 0.02))
    if len(ys) == 0:
        return alpha
    h, w = rgb.shape[:2]
    back_rgb = backdrop_rgb(back, w, h)[ys, xs]
    own, share = estimate_foreground(rgb, alpha, ys, xs)
    line = own - back_rgb
    length2 = (line * line).sum(axis=1)
    mix = ((rgb[ys, xs].astype(np.float32) - back_rgb) * line).sum(axis=1)
    projected = np.clip(mix / np.maximum(length2, 1.0), 0.0, 1.0)
    usable = (length2 >= COLOUR_LINE_MIN**2) & (share > 0.05)
    out = alpha.copy()
    # Only ever lowered: the saturated matte errs on the opaque side, and a projection that
    # comes out higher is more likely a shaded or printed part of the subject that is not
    # the colour of its neighbourhood (the inside of a neck opening, a logo).
    out[ys, xs] = np.where(usable, np.minimum(projected, alpha[ys, xs]), alpha[ys, xs])
    return out


def estimate_background(rgb: Image8, alpha: Mask) -> Float32:
    """What the old background looked like behind the subject's edge (a smooth fill)."""
    h, w = rgb.shape[:2]
    scale = 128.0 / max(h, w)
    small = cv2.resize(
        rgb, (max(1, int(w * scale)), max(1, int(h * scale))), interpolation=cv2.INTER_AREA
    ).astype(np.float32)
    weight = 1.0 - cv2.resize(alpha, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_AREA)
    weight = np.where(weight > 0.9, weight, 0.0).astype(np.float32)
    blurred_w = cv2.GaussianBlur(weight, (0, 0), 6) + 1e-4
    blurred = cv2.GaussianBlur(small * weight[..., None], (0, 0), 6) / blurred_w[..., None]
    return np.asarray(cv2.resize(blurred, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def estimate_foreground(rgb: Image8, alpha: Mask, ys: Ints,
                        xs: Ints) -> tuple[Float32, Float32]:
    """The subject's own colour near each edge pixel (ys, xs): the mean of the sure subject
    pixels around it (n, 3), and how much of that neighbourhood is sure subject (n,).

    Worked out at half size: the colours of a sleeve or of hair vary slowly along the edge.
    """
    h, w = rgb.shape[:2]
    size = (max(1, w // 2), max(1, h // 2))
    small = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    sure = (cv2.resize(alpha, size, interpolation=cv2.INTER_AREA) > FOREGROUND_SURE)
    weight = sure.astype(np.float32)
    sigma = max(2.0, min(h, w) / 256)
    blurred_w = cv2.GaussianBlur(weight, (0, 0), sigma)
    blurred = cv2.GaussianBlur(small * weight[..., None], (0, 0), sigma)
    sy = np.minimum(ys // 2, size[1] - 1)
    sx = np.minimum(xs // 2, size[0] - 1)
    share = blurred_w[sy, sx]
    colour = blurred[sy, sx] / np.maximum(share, 1e-4)[:, None]
    return colour, share


# Edge pixels above this alpha count as sure subject when the subject's own colour is estimated.
FOREGROUND_SURE = 0.95


def decontaminate(rgb: Image8, alpha: Mask) -> Image8:
    """Remove the old background's colour from semi-transparent edge pixels.

    The photo is I = a*F + (1-a)*B; with B estimated, F = B + (I - B)/a. That inversion is
    only as good as the alpha: where the matte is a little too opaque (a soft edge, a blurred
    sleeve) F keeps part of the backdrop's hue, a coloured fringe on a new background. So the
    more transparent a pixel is, the more its colour is taken from the sure subject beside it
    (hair strands take the hair's colour, a sleeve's edge the sleeve's).
    """
    ys, xs = np.nonzero((alpha > 0.02) & (alpha < 0.98))
    if len(ys) == 0:
        return rgb
    back = estimate_background(rgb, alpha)[ys, xs]
    a = np.maximum(alpha[ys, xs], 0.15)[:, None]
    recovered = np.clip(back + (rgb[ys, xs].astype(np.float32) - back) / a, 0, 255)
    own, share = estimate_foreground(rgb, alpha, ys, xs)
    # Trust the neighbourhood's colour only where there is sure subject nearby.
    trust = ((1.0 - alpha[ys, xs]) * np.clip(share * 4.0, 0.0, 1.0))[:, None]
    out = rgb.copy()
    out[ys, xs] = np.clip(recovered * (1.0 - trust) + own * trust, 0, 255)
    return out
