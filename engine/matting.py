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

    lab: np.ndarray  # (3,) float32 mean Lab of the backdrop
    surface: np.ndarray  # (small h, small w, 3) float32 Lab of the backdrop everywhere
    noise: float  # how far the edge strays from its fit (weighted Lab, 90th percentile)
    plain: bool


def _edge_fit(values: np.ndarray, usable: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
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


def backdrop(rgb: np.ndarray) -> Backdrop:
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

    def near(values: np.ndarray) -> np.ndarray:
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
    rgb: np.ndarray, back: Backdrop, weights: np.ndarray = DISTANCE_WEIGHTS
) -> np.ndarray:
    """Soft foreground probability from the distance to the backdrop surface."""
    h, w = rgb.shape[:2]
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    # The surface is smooth: 8 bits are plenty, and 8-bit resizing and differencing are several
    # times cheaper than float at full size.
    surface8 = np.clip(back.surface + 0.5, 0, 255).astype(np.uint8)
    surface = cv2.resize(surface8, (w, h), interpolation=cv2.INTER_LINEAR)
    diff = cv2.absdiff(lab, surface).astype(np.float32)
    weighted = cv2.transform(cv2.multiply(diff, diff), weights[None, :])
    distance = cv2.sqrt(weighted)
    low = back.noise + 4.0
    high = low + 12.0
    return np.clip((distance - low) * (1.0 / (high - low)), 0.0, 1.0).astype(np.float32)


def clean_mask(mask: np.ndarray, min_share: float = 0.02) -> np.ndarray:
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


def guided_filter(guide: np.ndarray, source: np.ndarray, radius: int, eps: float) -> np.ndarray:
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


def refine(rgb: np.ndarray, coarse: np.ndarray) -> np.ndarray:
    """Full-resolution soft alpha from a coarse mask (any resolution), guided by the photo."""
    h, w = rgb.shape[:2]
    if coarse.shape[:2] != (h, w):
        coarse = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    radius = max(2, int(round(min(h, w) / 180)))
    # A grey guide is four times cheaper than a colour one and follows hair just as well.
    guide = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) * (1.0 / 255.0)
    alpha = guided_filter(guide, coarse.astype(np.float32), radius, 1e-4)
    # Push the confident interior and exterior to exactly 1 and 0; keep the edge soft.
    alpha = np.clip((alpha - 0.08) * (1.0 / 0.84), 0.0, 1.0)
    return alpha.astype(np.float32)


def tighten(alpha: np.ndarray, interior: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """On a plain backdrop, a pixel of the backdrop's own colour is not subject.

    The guided filter (and the models' blurry masks) leave a few pixels of partial alpha
    outside the true edge; those would show the old backdrop as a pale halo. Outside the sure
    interior, alpha is capped by (twice) the colour-distance matte. Inside it is left alone:
    a white shirt on a white sweep has backdrop-coloured pixels that are still shirt.
    """
    cap = np.minimum(distance * 2.0, 1.0)
    return np.where(interior > 0, alpha, np.minimum(alpha, cap)).astype(np.float32)


def estimate_background(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
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
    return cv2.resize(blurred, (w, h), interpolation=cv2.INTER_LINEAR)


def decontaminate(rgb: np.ndarray, alpha: np.ndarray) -> np.ndarray:
    """Remove the old background's colour from semi-transparent edge pixels.

    The photo is I = a*F + (1-a)*B; with B estimated, F = B + (I - B)/a. Only edge pixels change.
    """
    ys, xs = np.nonzero((alpha > 0.02) & (alpha < 0.98))
    if len(ys) == 0:
        return rgb
    back = estimate_background(rgb, alpha)[ys, xs]
    a = np.maximum(alpha[ys, xs], 0.15)[:, None]
    out = rgb.copy()
    out[ys, xs] = np.clip(back + (rgb[ys, xs].astype(np.float32) - back) / a, 0, 255)
    return out
