"""The garment's side of the output gate: how faithfully the output's garment region reproduces
the garment photo (numpy and OpenCV only). Three measures, each on crops aligned by the two
garments' bounding boxes (the flat or worn garment in its photo, the garment region of the
output):

- colour: the earth mover's distance (CIEDE2000) from the garment's colour distribution to the
  output region's, each as FINE_CLUSTERS colours with their shares (colour.
  distribution_difference: a colour must be found again in its share, not only somewhere);
- pattern: the magnitude-weighted gradient-orientation histograms of a 4x4 grid of cells on
  the two crops brought to one size (where the garment has edges, stripes, print and which way
  they run), their cosine similarity times the ratio of their texture energies (a patterned
  garment made plain, or a flat patch, has little energy);
- print: ORB keypoints of the garment crop brought to the output crop's size, matched to the
  output crop (Lowe's ratio test, then a RANSAC homography): the inliers, a logo or print
  surviving as it was. Only where the garment has texture enough to find keypoints in (a plain
  garment has nothing to match: not measured).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import BoolMask, Float32, Image8
from engine.diffusion.fidelity.colour import CLUSTERS, dominant_colours, lab_pixels

GRID = 4  # cells per side of the pattern's grid
BINS = 8  # unsigned orientations per cell
PATTERN_SIDE = 128  # both crops are compared at this size (square: the boxes align them)
PRINT_SIDE = 320  # the crops' long side for keypoints (aspect kept: the homography scales)
MIN_KEYPOINTS = 30  # fewer measurable on the garment: no print to measure
RATIO = 0.8  # Lowe's ratio test
PRINT_INSET = 17  # pixels at PRINT_SIDE: keypoints are looked for this far inside the outline
RANSAC_PIXELS = 6.0  # reprojection tolerance at PRINT_SIDE (a worn print bends a little)
RESAMPLE = 0.7  # a keypoint is measurable when it survives this down- and upscale


@dataclass(frozen=True)
class Crop:
    """A garment cut to its bounding box: the pixels and where the garment is in them."""

    rgb: Image8
    mask: BoolMask

    @property
    def empty(self) -> bool:
        return int(np.count_nonzero(self.mask)) < 64


def crop(rgb: Image8, mask: BoolMask) -> Crop:
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return Crop(np.zeros((1, 1, 3), np.uint8), np.zeros((1, 1), bool))
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    return Crop(np.ascontiguousarray(rgb[y0:y1, x0:x1]), np.ascontiguousarray(mask[y0:y1, x0:x1]))


def _resized(part: Crop, width: int, height: int, inset: int = 5) -> tuple[Float32, BoolMask]:
    scaled = cv2.cvtColor(part.rgb, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    grey = cv2.resize(scaled, (width, height), interpolation=cv2.INTER_AREA)
    mask = cv2.resize(part.mask.astype(np.uint8), (width, height),
                      interpolation=cv2.INTER_NEAREST) > 0
    # The garment's outline is not its pattern: only edges `inset` pixels inside count.
    inner = cv2.erode(mask.astype(np.uint8), np.ones((inset, inset), np.uint8)) > 0
    return np.asarray(grey, np.float32), inner


def orientation_histograms(part: Crop) -> tuple[Float32, float]:
    """(GRID*GRID*BINS,) gradient-orientation histograms, and the mean gradient magnitude inside
    the garment (its texture energy, luma 0..1 per pixel at PATTERN_SIDE)."""
    grey, inner = _resized(part, PATTERN_SIDE, PATTERN_SIDE)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.hypot(gx, gy) * inner
    angle = np.mod(np.arctan2(gy, gx), np.pi)
    bin_of = np.minimum((angle / np.pi * BINS).astype(np.int64), BINS - 1)
    cell = PATTERN_SIDE // GRID
    rows, cols = np.indices(grey.shape) // cell
    index = (rows * GRID + cols) * BINS + bin_of
    histograms = np.bincount(index.ravel(), magnitude.ravel(), minlength=GRID * GRID * BINS)
    energy = float(magnitude.sum() / max(1, int(inner.sum())))
    return np.asarray(histograms, np.float32), energy


def pattern_similarity(garment: Crop, output: Crop) -> float:
    """0..1: the two crops' orientation histograms' cosine times their energies' ratio."""
    if garment.empty or output.empty:
        return 0.0
    h1, e1 = orientation_histograms(garment)
    h2, e2 = orientation_histograms(output)
    norm = float(np.linalg.norm(h1) * np.linalg.norm(h2))
    if norm <= 1e-12:
        return 0.0
    cosine = float(np.dot(h1, h2)) / norm
    return cosine * min(e1, e2) / max(e1, e2)


def _keypoints(part: Crop) -> tuple[list[cv2.KeyPoint], Image8 | None]:
    scale = PRINT_SIDE / max(part.rgb.shape[:2])
    width = max(8, round(part.rgb.shape[1] * scale))
    height = max(8, round(part.rgb.shape[0] * scale))
    # Keypoints on the outline would match a flat patch of the garment's shape: a print is
    # well inside it.
    grey, inner = _resized(part, width, height, PRINT_INSET)
    orb = cv2.ORB_create(nfeatures=800, fastThreshold=12)  # type: ignore[attr-defined]
    found, descriptors = orb.detectAndCompute((grey * 255.0).astype(np.uint8),
                                              inner.astype(np.uint8) * 255)
    return list(found), descriptors


def _matched(found: list[cv2.KeyPoint], descriptors: Image8, other: Crop) -> BoolMask:
    """Which of `found` are found again in `other`: Lowe's ratio test, then the inliers of one
    RANSAC homography."""
    hit = np.zeros(len(found), bool)
    if other.empty:
        return hit
    theirs, their_descriptors = _keypoints(other)
    if their_descriptors is None or len(theirs) < 4:
        return hit
    pairs = cv2.BFMatcher(cv2.NORM_HAMMING).knnMatch(descriptors, their_descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    if len(good) < 4:
        return hit
    source = np.array([found[m.queryIdx].pt for m in good], np.float32).reshape(-1, 1, 2)
    target = np.array([theirs[m.trainIdx].pt for m in good], np.float32).reshape(-1, 1, 2)
    _, inliers = cv2.findHomography(source, target, cv2.RANSAC, RANSAC_PIXELS)
    if inliers is not None:
        hit[[m.queryIdx for m, kept in zip(good, inliers.ravel(), strict=True) if kept]] = True
    return hit


def print_survival(garment: Crop, output: Crop) -> float | None:
    """The share of the garment's measurable keypoints found again in the output (ratio test,
    one RANSAC homography), 0..1. The keypoints are taken on the garment photo brought to the
    output garment's box (the boxes align them, as for the pattern): a worn garment is squashed
    or stretched against its photo (a long top on a torso: 1.6 times), and ORB's descriptors
    are not made for that, so a fine print (paisley, zebra) matched in its own aspect is found
    nowhere. Measurable: those found again after that image is resampled at RESAMPLE of its
    size and back (what any faithful try-on could keep). None where fewer than MIN_KEYPOINTS
    are measurable (a plain garment; the pattern score speaks)."""
    if garment.empty or output.empty:
        return None
    height, width = output.mask.shape
    seen = Crop(np.asarray(cv2.resize(garment.rgb, (width, height),
                                      interpolation=cv2.INTER_AREA), np.uint8),
                cv2.resize(garment.mask.astype(np.uint8), (width, height),
                           interpolation=cv2.INTER_NEAREST) > 0)
    found, descriptors = _keypoints(seen)
    if descriptors is None or len(found) < MIN_KEYPOINTS:
        return None
    size = (max(8, round(width * RESAMPLE)), max(8, round(height * RESAMPLE)))
    small = cv2.resize(seen.rgb, size, interpolation=cv2.INTER_AREA)
    soft = Crop(np.asarray(cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR),
                           np.uint8), seen.mask)
    keep = _matched(found, descriptors, soft)
    if int(keep.sum()) < MIN_KEYPOINTS:
        return None
    kept = [k for k, measurable in zip(found, keep, strict=True) if measurable]
    return float(_matched(kept, descriptors[keep], output).sum()) / len(kept)


def palette(part: Crop, clusters: int = CLUSTERS) -> tuple[Float32, Float32]:
    """The garment's dominant colours (inside its mask, its outline's blend left out)."""
    inner = cv2.erode(part.mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return dominant_colours(lab_pixels(part.rgb, inner if inner.any() else part.mask), clusters)


__all__ = ["Crop", "crop", "palette", "pattern_similarity", "print_survival"]
