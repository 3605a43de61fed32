"""Colour in a perceptual space for the output gate: CIE Lab, the CIEDE2000 difference, and an
image region's dominant colours (numpy and OpenCV only).

CIEDE2000 (Sharma, Wu and Dalal, 2005) is the CIE's colour difference: about 1 is the smallest
difference an eye sees side by side, 2-10 is a difference seen at a glance, 10 and more is
another colour.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.arrays import BoolMask, Float32, Floats, Image8

SAMPLE = 6000  # pixels a region's colours are clustered from (a fixed, seeded sample)
CLUSTERS = 4
ITERATIONS = 12
FINE_CLUSTERS = 8  # the colour distribution's clusters (the garment colour score)
SLACK = 1.5  # a candidate colour may take this many times its share of the reference's mass


def lab_pixels(rgb: Image8, where: BoolMask | None = None) -> Float32:
    """(n, 3) CIE Lab (L 0..100) of `rgb`'s pixels, those in `where` only when given."""
    pixels = rgb.reshape(-1, 3) if where is None else rgb[where]
    if len(pixels) == 0:
        return np.zeros((0, 3), np.float32)
    scaled = (pixels.astype(np.float32) / 255.0).reshape(-1, 1, 3)
    return np.asarray(cv2.cvtColor(scaled, cv2.COLOR_RGB2LAB).reshape(-1, 3), np.float32)


def delta_e2000(lab1: Floats, lab2: Floats) -> Floats:
    """CIEDE2000 between Lab colours (broadcast over leading axes; kL = kC = kH = 1)."""
    l1, a1, b1 = (np.asarray(lab1, np.float64)[..., i] for i in range(3))
    l2, a2, b2 = (np.asarray(lab2, np.float64)[..., i] for i in range(3))
    mean_c = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2.0
    g = 0.5 * (1.0 - np.sqrt(mean_c**7 / (mean_c**7 + 25.0**7)))
    a1p, a2p = (1.0 + g) * a1, (1.0 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360.0
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360.0
    chromatic = c1p * c2p != 0
    dh = h2p - h1p
    dh = np.where(dh > 180.0, dh - 360.0, np.where(dh < -180.0, dh + 360.0, dh))
    dh = np.where(chromatic, dh, 0.0)
    big_h = 2.0 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2.0))
    mean_l, mean_cp, h_sum = (l1 + l2) / 2.0, (c1p + c2p) / 2.0, h1p + h2p
    mean_h = np.where(np.abs(h1p - h2p) <= 180.0, h_sum / 2.0,
                      np.where(h_sum < 360.0, (h_sum + 360.0) / 2.0, (h_sum - 360.0) / 2.0))
    mean_h = np.where(chromatic, mean_h, h_sum)
    t = (1.0 - 0.17 * np.cos(np.radians(mean_h - 30.0)) + 0.24 * np.cos(np.radians(2 * mean_h))
         + 0.32 * np.cos(np.radians(3 * mean_h + 6.0))
         - 0.20 * np.cos(np.radians(4 * mean_h - 63.0)))
    theta = 30.0 * np.exp(-(((mean_h - 275.0) / 25.0) ** 2))
    rc = 2.0 * np.sqrt(mean_cp**7 / (mean_cp**7 + 25.0**7))
    sl = 1.0 + 0.015 * (mean_l - 50.0) ** 2 / np.sqrt(20.0 + (mean_l - 50.0) ** 2)
    sc, sh = 1.0 + 0.045 * mean_cp, 1.0 + 0.015 * mean_cp * t
    rt = -np.sin(np.radians(2.0 * theta)) * rc
    dl, dc, dhh = (l2 - l1) / sl, (c2p - c1p) / sc, big_h / sh
    return np.asarray(np.sqrt(np.maximum(dl**2 + dc**2 + dhh**2 + rt * dc * dhh, 0.0)))


def dominant_colours(lab: Float32, clusters: int = CLUSTERS) -> tuple[Float32, Float32]:
    """A region's dominant colours: k-means in Lab on a seeded sample (the same pixels give the
    same answer). Returns (centres (m, 3), their shares of the pixels (m,)), largest first."""
    if len(lab) == 0:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.float32)
    rng = np.random.default_rng(0)
    points = lab if len(lab) <= SAMPLE else lab[rng.choice(len(lab), SAMPLE, replace=False)]
    points = np.asarray(points, np.float64)
    # k-means++ seeding: each next centre far from those chosen.
    centres = [points[rng.integers(len(points))]]
    for _ in range(1, min(clusters, len(points))):
        distance = np.min([((points - c) ** 2).sum(1) for c in centres], axis=0)
        if distance.sum() <= 0:
            break
        centres.append(points[rng.choice(len(points), p=distance / distance.sum())])
    centre = np.array(centres)
    for _ in range(ITERATIONS):
        label = ((points[:, None] - centre[None]) ** 2).sum(-1).argmin(1)
        centre = np.array([points[label == k].mean(0) if np.any(label == k) else centre[k]
                           for k in range(len(centre))])
    label = ((points[:, None] - centre[None]) ** 2).sum(-1).argmin(1)
    shares = np.bincount(label, minlength=len(centre)) / len(points)
    order = np.argsort(-shares)
    keep = order[shares[order] > 0]
    return np.asarray(centre[keep], np.float32), np.asarray(shares[keep], np.float32)


def distribution_difference(reference: tuple[Float32, Float32],
                            candidate: tuple[Float32, Float32], slack: float = SLACK) -> float:
    """How far `reference`'s colours are from being found in `candidate`'s in their shares: the
    earth mover's distance (CIEDE2000 ground cost, averaged over the reference's mass) when each
    candidate colour may take up to `slack` times its own share. A colour of the garment found
    again only in a small cluster (a recolour that turned the print's greys into the garment's
    old hue) must carry the rest of its mass further; extra colours in the candidate (skin, a
    strap of the old garment, backdrop inside the region) may stay unused, up to 1 - 1/slack of
    it."""
    ref_centres, ref_shares = reference
    centres, shares = candidate
    if not len(ref_centres) or not len(centres):
        return float("inf")
    cost = np.asarray(delta_e2000(ref_centres[:, None], centres[None]), np.float32)
    source = (ref_shares / ref_shares.sum()).reshape(-1, 1).astype(np.float32)
    sink = (shares / shares.sum() * slack).reshape(-1, 1).astype(np.float32)
    _, _, flow = cv2.EMD(source, sink, cv2.DIST_USER, cost)
    return float((np.asarray(flow) * cost).sum() / source.sum())


__all__ = ["delta_e2000", "distribution_difference", "dominant_colours", "lab_pixels"]
