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

BORDER = 6  # pixels of the frame used to estimate the backdrop


@dataclass(frozen=True)
class Backdrop:
    """The studio backdrop's colour, if the photo has a plain one."""

    lab: np.ndarray  # (3,) float32 Lab of the backdrop
    noise: float  # how much the backdrop itself varies (Lab distance, 95th percentile)
    plain: bool


def backdrop(rgb: np.ndarray) -> Backdrop:
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    ring = np.concatenate(
        [
            lab[:BORDER].reshape(-1, 3),
            lab[-BORDER:].reshape(-1, 3),
            lab[:, :BORDER].reshape(-1, 3),
            lab[:, -BORDER:].reshape(-1, 3),
        ]
    )
    centre = np.median(ring, axis=0)
    distance = np.linalg.norm(ring - centre, axis=1)
    noise = float(np.percentile(distance, 80))
    # Plain: most of the frame's edge is within a small distance of one colour.
    plain = float(np.mean(distance < 12.0)) > 0.6
    return Backdrop(centre.astype(np.float32), noise, plain)


def colour_distance_matte(rgb: np.ndarray, back: Backdrop) -> np.ndarray:
    """Soft foreground probability from the distance to the backdrop colour."""
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)
    diff = cv2.absdiff(lab, np.full_like(lab, np.clip(back.lab, 0, 255).astype(np.uint8)))
    diff = diff.astype(np.float32)
    # Chroma counts double: shadows on the backdrop change lightness more than colour.
    weights = np.array([[0.8, 2.0, 2.0]], np.float32)
    distance = cv2.sqrt(cv2.transform(cv2.multiply(diff, diff), weights))
    low = back.noise + 3.0
    high = low + 14.0
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


def refine(rgb: np.ndarray, coarse: np.ndarray) -> np.ndarray:
    """Full-resolution soft alpha from a coarse mask (any resolution), guided by the photo."""
    h, w = rgb.shape[:2]
    if coarse.shape[:2] != (h, w):
        coarse = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    radius = max(2, int(round(min(h, w) / 180)))
    # A grey guide is four times cheaper than a colour one and follows hair just as well.
    guide = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) * (1.0 / 255.0)
    alpha = cv2.ximgproc.guidedFilter(guide, coarse.astype(np.float32), radius, 1e-4)
    # Push the confident interior and exterior to exactly 1 and 0; keep the edge soft.
    alpha = np.clip((alpha - 0.08) / 0.84, 0.0, 1.0)
    return alpha.astype(np.float32)


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
