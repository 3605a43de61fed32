"""The pose images the try-on model was trained with: a whole-body pose drawn as a grey skeleton.

The pose comes from DWPose (COCO-WholeBody: 133 keypoints per person, each with a score), which
a later step runs with onnxruntime; here is what turns its keypoints into the model's input, in
the drawing convention the published weights saw in training (FASHN's grey variant of the
OpenPose drawing): the 18 OpenPose body points joined by 17 limbs, each limb its own grey level,
then the hands' 20 bones and points, then the 68 face points. Sizes are in pixels of the image
the pose is drawn on, which the reference makes the photo fitted inside 864x864 (never
enlarged): `drawing_size` gives it. Foot keypoints are not drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import Float64, Floats, Image8

VISIBLE = 0.3  # a keypoint's score above which it is drawn
LONGEST = 864  # the reference draws on the photo fitted inside LONGEST x LONGEST

# COCO-WholeBody body order -> OpenPose's 18 (nose, neck, right shoulder/elbow/wrist, left
# shoulder/elbow/wrist, right hip/knee/ankle, left hip/knee/ankle, right/left eye, right/left
# ear). The neck is not a COCO point: the shoulders' midpoint (COCO 5 and 6).
NECK = -1
OPENPOSE_FROM_COCO = (0, NECK, 6, 8, 10, 5, 7, 9, 12, 14, 16, 11, 13, 15, 2, 1, 4, 3)
FACE = slice(23, 91)  # 68 landmarks
HANDS = (slice(91, 112), slice(112, 133))  # 21 points each: left, then right

# Limbs between OpenPose points (0-based), in drawing order: arms, legs, then the head.
LIMBS = ((1, 2), (1, 5), (2, 3), (3, 4), (5, 6), (6, 7), (1, 8), (8, 9), (9, 10), (1, 11),
         (11, 12), (12, 13), (1, 0), (0, 14), (14, 16), (0, 15), (15, 17))
LIMB_GREYS = np.linspace(20, 240, 18).astype(np.uint8)  # limb i's grey (the last unused)
LIMB_DIM = 0.6  # limbs are dimmed under the joints
LIMB_HALF_WIDTH = 4
JOINT_RADIUS = 4
JOINT_BRIGHTER = 1.3  # a joint is its first limb's grey, brighter
HAND_BONES = ((0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (0, 9), (9, 10),
              (10, 11), (11, 12), (0, 13), (13, 14), (14, 15), (15, 16), (0, 17), (17, 18),
              (18, 19), (19, 20))
HAND_GREYS = np.linspace(160, 220, len(HAND_BONES)).astype(np.uint8)
HAND_POINT, HAND_RADIUS, HAND_WIDTH = 240, 4, 2
FACE_POINT, FACE_RADIUS = 200, 3


@dataclass(frozen=True)
class Pose:
    """One person's keypoints as fractions of the image's width and height; NaN where not seen."""

    body: Float64  # (18, 2), OpenPose order
    hands: Float64  # (2, 21, 2): left, right
    face: Float64  # (68, 2)

    @classmethod
    def from_wholebody(cls, keypoints: Floats, scores: Floats, width: int,
                       height: int) -> Pose:
        """From DWPose's 133 keypoints (pixels) and scores of one person."""
        points = keypoints.astype(np.float64) / np.array([width, height], np.float64)
        seen = scores > VISIBLE
        body = np.full((18, 2), np.nan)
        for openpose, coco in enumerate(OPENPOSE_FROM_COCO):
            if coco == NECK:
                if seen[5] and seen[6]:
                    body[openpose] = (points[5] + points[6]) / 2
            elif seen[coco]:
                body[openpose] = points[coco]
        # Hands and face keep points scored exactly at the threshold (the reference's own rule).
        kept = np.where((scores >= VISIBLE)[:, None], points, np.nan)
        hands = np.stack([kept[part] for part in HANDS])
        return cls(body, hands, kept[FACE])


def best_person(keypoints: Floats, scores: Floats) -> int:
    """Which of several detected people to dress: the largest confident body (sum of the seen
    torso and limb scores times the area they span), as the reference picks one."""
    best, chosen = -1.0, 0
    for person, (points, score) in enumerate(zip(keypoints, scores, strict=True)):
        body = [coco for coco in OPENPOSE_FROM_COCO[1:14] if coco != NECK]
        seen = [coco for coco in body if score[coco] > VISIBLE]
        if not seen:
            continue
        span = points[seen].max(axis=0) - points[seen].min(axis=0)
        value = float(score[seen].sum() * span[0] * span[1])
        if value > best:
            best, chosen = value, person
    return chosen


def drawing_size(height: int, width: int) -> tuple[int, int]:
    """The size the reference draws a photo's pose at: fitted inside LONGEST, never enlarged."""
    scale = min(1.0, LONGEST / max(height, width))
    return int(height * scale), int(width * scale)


def _pixel(point: Float64, width: int, height: int) -> tuple[int, int] | None:
    """A fraction point in whole pixels; None where unseen or on the image's first row/column
    (the reference draws only coordinates above zero)."""
    if np.isnan(point).any():
        return None
    x, y = int(point[0] * width), int(point[1] * height)
    return (x, y) if x > 0 and y > 0 else None


def draw_pose(pose: Pose | None, height: int, width: int) -> Image8:
    """The grey pose image (height, width) uint8; all black for None (a flat-lay garment)."""
    canvas = np.zeros((height, width), np.uint8)
    if pose is None:
        return canvas
    limbs = np.zeros_like(canvas)
    body = [None if np.isnan(p).any() else (int(p[0] * width), int(p[1] * height))
            for p in pose.body]
    for index, (a, b) in enumerate(LIMBS):
        start, end = body[a], body[b]
        if start is None or end is None:
            continue
        centre = ((start[0] + end[0]) // 2, (start[1] + end[1]) // 2)
        length = int(math.hypot(start[0] - end[0], start[1] - end[1]))
        angle = int(math.degrees(math.atan2(start[1] - end[1], start[0] - end[0])))
        outline = cv2.ellipse2Poly(centre, (length // 2, LIMB_HALF_WIDTH), angle, 0, 360, 1)
        cv2.fillConvexPoly(limbs, outline, int(LIMB_GREYS[index]))
    canvas = np.maximum(canvas, (limbs * LIMB_DIM).astype(np.uint8))
    for point, place in enumerate(body):
        if place is None:
            continue
        first = next(i for i, limb in enumerate(LIMBS) if point in limb)
        grey = min(255, int(int(LIMB_GREYS[first]) * JOINT_BRIGHTER))
        cv2.circle(canvas, place, JOINT_RADIUS, grey, thickness=-1)
    for hand in pose.hands:
        pixels = [_pixel(p, width, height) for p in hand]
        for (a, b), grey in zip(HAND_BONES, HAND_GREYS, strict=True):
            start, end = pixels[a], pixels[b]
            if start is not None and end is not None:
                cv2.line(canvas, start, end, int(grey), thickness=HAND_WIDTH)
        for place in pixels:
            if place is not None:
                cv2.circle(canvas, place, HAND_RADIUS, HAND_POINT, thickness=-1)
    for point in pose.face:
        place = _pixel(point, width, height)
        if place is not None:
            cv2.circle(canvas, place, FACE_RADIUS, FACE_POINT, thickness=-1)
    return canvas
