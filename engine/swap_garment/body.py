"""What the digital model's photo says about its body: the torso's axes, the shoulders, where
a garment must sit, the bare arms and hands, the hair in front, and the light on the own top.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import models
from engine.arrays import BoolMask, Float32, Floats, Image8, Mask
from engine.digital_model import Person
from engine.swap_garment.classify import BOTTOM


def _capsule(shape: tuple[int, int], a: Floats, b: Floats, radius: float) -> Image8:
    mask = np.zeros(shape, np.uint8)
    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 1, max(1, int(2 * radius)))
    return mask


def arm_masks(model: Person) -> tuple[Mask, Mask]:
    """The model's bare arms and hands (float32 0/1): skin along the pose's arm bones."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    arms = np.zeros((h, w), np.uint8)
    hands = np.zeros((h, w), np.uint8)
    for s, e, wr in (
        (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST),
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST),
    ):
        arms |= _capsule((h, w), p[s], p[e], 0.2 * width)
        arms |= _capsule((h, w), p[e], p[wr], 0.17 * width)
        cv2.circle(hands, tuple(int(v) for v in p[wr]), int(0.22 * width), 1, -1)
    skin = model.skin > 0.5
    return (arms.astype(bool) & skin).astype(np.float32), (hands.astype(bool) & skin).astype(
        np.float32
    )


def hair_mask(model: Person) -> Mask:
    """The model's hair that can fall in front of a garment: dark, not skin, near the head."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    shoulder_y = float(min(p[models.LEFT_SHOULDER, 1], p[models.RIGHT_SHOULDER, 1]))
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    zone = np.zeros((h, w), bool)
    zone[: int(max(0, shoulder_y + 0.45 * width))] = True
    grey = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2GRAY)
    hair = zone & (grey < 90) & (model.subject.cutout.alpha > 0.5) & (model.skin < 0.5)
    # Hair grows from the head: only dark parts that reach the head (above the shoulders' line,
    # near the nose's column). A shadow
    # between a dark-skinned arm and the torso (model-4) is dark and not skin too, and drawn in
    # front of the garment it ran down the sleeve seams as brown streaks.
    count, labels = cv2.connectedComponents(hair.astype(np.uint8))
    if count > 1:
        top = int(max(0, shoulder_y - 0.1 * width))
        nose = float(p[models.NOSE, 0])
        x0, x1 = int(max(0, nose - 0.4 * width)), int(min(w, nose + 0.4 * width))
        rooted = np.unique(labels[:top, x0:x1][hair[:top, x0:x1]])
        hair = np.isin(labels, rooted[rooted > 0])
    return hair.astype(np.float32)


def shading(model: Person, where: Mask) -> Float32:
    """The model photo's light on its torso, as a multiplier around 1 (float32).

    Measured on the model's own top (bright, plain fabric in the catalog): its lightness over its
    local average gives folds and fall-off, which are then laid onto the new garment. Other
    regions (skin, jeans) would add their colour, not light, so they stay at 1.
    """
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    top = float(min(p[models.LEFT_SHOULDER, 1], p[models.RIGHT_SHOULDER, 1]))
    hips = float(max(p[models.LEFT_HIP, 1], p[models.RIGHT_HIP, 1]))
    region = np.zeros((h, w), np.float32)
    region[int(max(0, top)) : int(max(0, top + 0.75 * (hips - top)))] = 1.0
    region *= (model.subject.cutout.alpha > 0.9) * (model.skin < 0.5) * (where > 0.5)
    grey = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    if region.sum() < 500:
        return np.ones((h, w), np.float32)
    # Only the brightest plain cloth: a light top reflects the light, not its own pattern.
    cloth = region * (grey > np.percentile(grey[region > 0], 40))
    # Smooth ratios at a quarter of the size: the light varies slowly, and small texture
    # (a rib knit) must not be printed onto the new garment.
    sw, sh = max(8, w // 4), max(8, h // 4)
    g = cv2.resize(grey * cloth, (sw, sh), interpolation=cv2.INTER_AREA)
    c = cv2.resize(cloth, (sw, sh), interpolation=cv2.INTER_AREA)
    local = cv2.GaussianBlur(g, (0, 0), 1.2) / (cv2.GaussianBlur(c, (0, 0), 1.2) + 1e-3)
    level = float(np.percentile(grey[cloth > 0], 80))
    ratio = np.where(c > 0.5, local / max(level, 1.0), 1.0).astype(np.float32)
    # Where no cloth was measured (under the arms, past the hem) the light fades to neutral.
    weight = cv2.GaussianBlur((c > 0.5).astype(np.float32), (0, 0), 2.0)
    ratio = 1.0 + (cv2.GaussianBlur(ratio, (0, 0), 1.0) - 1.0) * weight
    ratio = np.clip(ratio, 0.7, 1.1) ** 0.8
    return np.asarray(cv2.resize(ratio, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def body_axes(model: Person) -> tuple[Floats, Floats, float]:
    """Across (image left to right) and down unit vectors of the body, and the torso's length."""
    p = model.pose.points
    joint_l, joint_r = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    hip_l, hip_r = p[models.RIGHT_HIP], p[models.LEFT_HIP]
    across = (joint_r - joint_l) / max(float(np.linalg.norm(joint_r - joint_l)), 1.0)
    axis = (hip_l + hip_r) / 2 - (joint_l + joint_r) / 2
    length = float(np.linalg.norm(axis))
    return across, axis / max(length, 1.0), length


def expected_region(model: Person, kind: str) -> BoolMask:
    """Where the garment must be (bool): the chest band for a top, dress or outerwear; the band
    just below the waist for a bottom, in both cases inside the model's matte and between the
    body's sides (shoulders or hips)."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    across, down, torso = body_axes(model)
    if kind == BOTTOM:
        centre = p[[models.LEFT_HIP, models.RIGHT_HIP]].mean(axis=0)
        half = 0.5 * float(np.linalg.norm(p[models.LEFT_HIP] - p[models.RIGHT_HIP]))
        start, end = -0.1 * torso, 0.1 * torso
    else:
        centre = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER]].mean(axis=0)
        half = 0.35 * float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
        start, end = 0.2 * torso, 0.4 * torso
    corners = np.array(
        [centre + down * start - across * half, centre + down * start + across * half,
         centre + down * end + across * half, centre + down * end - across * half],
        np.int32,
    )
    region = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(region, corners, 1)
    return (region > 0) & (model.subject.cutout.alpha > 0.5)


def shoulder_frame(model: Person) -> tuple[float, float, float, float]:
    """(left x, right x, the shoulders' y, the shoulder width) from the pose."""
    p = model.pose.points
    xs = sorted(float(v) for v in p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 0])
    y = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    return xs[0], xs[1], y, width
