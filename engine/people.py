"""The people in a photo, for the subject's matte and the photo analysis: the segmentation models
over tiles (any pose, several people) checked against the pose model, and the distinct faces
both face detectors find.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine import models
from engine.arrays import BoolMask, Image8, Mask

# People in any pose ----------------------------------------------------------------------
# The pose check above wants a frontal torso; people seen from the back, in profile, seated,
# crouching, mid-leap or in a group fail it while the segmentation models still see them.
# Windows handed to the selfie models are at most this elongated (the models stretch their
# input to a fixed size, so a 2.5:1 street scene would lose most of its horizontal detail).
TILE_ASPECT = 1.3
STUDIO_TILE_ASPECT = 1.4
TILE_STEP = 0.6  # neighbouring windows overlap by 40%
CROP_SIDE = 512  # the people's bounding box is segmented again at this long side
CROP_MARGIN = 0.1  # of the box's size on each side, plus a few pixels
CROP_SKIP = 0.97  # ... unless the box covers this share of the photo anyway
MAX_POSES = 2  # the pose model sees one person at a time; it is asked this many times
# A pose model's person counts only where the segmentation agrees (a face in a poster or a
# reflection can give landmarks): this share of its mask must be segmented person too.
POSE_AGREEMENT = 0.5
# A region of the segmentation is a person when it is at least this share of the photo and
# the models are sure of it (mean probability inside), and the photo has people at all when
# one of them is sure (> 0.9) over PEOPLE_SURE_SHARE of the photo or a pose agreed with it.
PERSON_MIN_SHARE = 0.003
PERSON_MIN_CONFIDENCE = 0.75
PEOPLE_SURE_SHARE = 0.05
# The pose model is asked again only while this share of the photo is segmented person that
# no pose found yet.
REST_SHARE = 0.01


@dataclass(frozen=True)
class People:
    """Everyone the segmentation models see, at the working size."""

    probability: Mask  # float32 person probability, kept regions only
    poses: int  # how many poses the pose model found that agree with the segmentation


def _starts(length: int, side: int) -> list[int]:
    if length <= side:
        return [0]
    count = int(np.ceil((length - side) / (side * TILE_STEP))) + 1
    return [round(i * (length - side) / (count - 1)) for i in range(count)]


def segment_tiled(rgb: Image8, aspect: float = TILE_ASPECT) -> Mask:
    """Person probability over near-square overlapping windows (at most `aspect` elongated),
    blended with weights that fall off toward each window's edge (a person cut by a window's
    edge is seen whole by its neighbour)."""
    h, w = rgb.shape[:2]
    if max(h, w) <= aspect * min(h, w):
        return models.person_probability(np.ascontiguousarray(rgb))
    side = min(h, w)
    total = np.zeros((h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    ramp = np.minimum(np.arange(side) + 1, side - np.arange(side)).astype(np.float32) + 1
    feather = np.minimum(ramp[:, None], ramp[None, :])
    for y in _starts(h, side):
        for x in _starts(w, side):
            window = np.ascontiguousarray(rgb[y : y + side, x : x + side])
            total[y : y + side, x : x + side] += models.person_probability(window) * feather
            weight[y : y + side, x : x + side] += feather
    return np.asarray(total / np.maximum(weight, 1e-6), np.float32)


def _box(mask: BoolMask) -> tuple[int, int, int, int] | None:
    """(top, bottom, left, right) of the mask's pixels, widened by CROP_MARGIN."""
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return None
    h, w = mask.shape
    top, bottom, left, right = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    my = int(CROP_MARGIN * (bottom - top)) + 4
    mx = int(CROP_MARGIN * (right - left)) + 4
    return max(0, top - my), min(h, bottom + my), max(0, left - mx), min(w, right + mx)


def _pose_masks(
    small: Image8, segmented: BoolMask, first: models.Pose | None
) -> tuple[Mask, int]:
    """The union of the pose model's person masks, one person at a time: each person found is
    painted out before asking again. The pose model crops to the person it finds, so its mask
    keeps thin limbs (an outstretched arm, a leg mid-leap) that the selfie models lose."""
    union = np.zeros(small.shape[:2], np.float32)
    image = small.copy()
    found = 0
    for attempt in range(MAX_POSES):
        pose = first if attempt == 0 else models.pose(image)
        if pose is None:
            break
        person = pose.mask > 0.5
        area = int(person.sum())
        if area < PERSON_MIN_SHARE * person.size:
            break
        if (person & segmented).sum() >= POSE_AGREEMENT * area:
            union = np.maximum(union, pose.mask)
            found += 1
        hide = cv2.dilate((pose.mask > 0.3).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
        image[hide] = 128
        # Stop once the poses cover everyone segmented (each pose call costs ~30 ms).
        if float((segmented & ~hide & (image != 128).any(axis=2)).mean()) < REST_SHARE:
            break
    return union, found


def segment_people(
    rgb: Image8, small: Image8, scale: float, pose: models.Pose | None
) -> People | None:
    """Everyone in the photo, whatever their pose, or None when the models see nobody.

    Three passes: the whole photo at the working size finds where people are; their bounding
    box is cut from the full-size photo and segmented again at CROP_SIDE (people small in a
    wide frame get four times the detail); the pose model adds the thin limbs. `pose` is the
    pose model's answer for `small` (find_subject has it already).
    """
    sh, sw = small.shape[:2]
    first = segment_tiled(small)
    box = _box(first > 0.5)
    if box is None:
        return None
    top, bottom, left, right = box
    if (bottom - top) * (right - left) >= CROP_SKIP * sh * sw:
        # The people fill the photo: a crop would be segmented at the same detail again.
        return _people(small, first, pose)
    crop = rgb[
        round(top / scale) : round(bottom / scale), round(left / scale) : round(right / scale)
    ]
    crop_small, _ = _resized(crop, CROP_SIDE)
    detail = cv2.resize(segment_tiled(crop_small), (right - left, bottom - top),
                        interpolation=cv2.INTER_LINEAR)
    probability = np.zeros((sh, sw), np.float32)
    probability[top:bottom, left:right] = detail
    return _people(small, probability, pose)


def _people(
    small: Image8, probability: Mask, pose: models.Pose | None
) -> People | None:
    """The pose masks added to the segmentation, then only the regions sure to be people."""
    poses, found = _pose_masks(small, probability > 0.5, pose)
    probability = np.maximum(probability, poses)
    # Keep the regions the models are sure are people; drop specks (a face in a crowd poster
    # far behind, a shadow) that would show as stray blobs in the cut-out.
    person = (probability > 0.5).astype(np.uint8)
    count, labels, stats, _centres = cv2.connectedComponentsWithStats(person, connectivity=8)
    areas = stats[:, cv2.CC_STAT_AREA]
    confidence = np.bincount(labels.ravel(), probability.ravel(), count) / np.maximum(areas, 1)
    keep = (areas >= PERSON_MIN_SHARE * person.size) & (confidence >= PERSON_MIN_CONFIDENCE)
    keep[0] = False
    if not keep.any():
        return None
    kept = keep[labels]
    sure = float(((probability > 0.9) & kept).mean())
    if found == 0 and sure < PEOPLE_SURE_SHARE:
        return None
    # Soft edges are kept around the kept regions (the matte's guided filter needs them).
    near = cv2.dilate(kept.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    return People(np.where(near, probability, 0.0).astype(np.float32), found)


def _resized(rgb: Image8, side: int) -> tuple[Image8, float]:
    h, w = rgb.shape[:2]
    scale = side / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return np.asarray(cv2.resize(rgb, size, interpolation=interpolation), np.uint8), scale


# Faces are looked for at this size (the detectors work at 128-192 px anyway); two face boxes
# overlapping this much (IoU) are one face.
FACE_SIDE = 1024
SAME_FACE_IOU = 0.3


def _iou(a: models.FaceBox, b: models.FaceBox) -> float:
    left, top = max(a.x, b.x), max(a.y, b.y)
    right = min(a.x + a.width, b.x + b.width)
    bottom = min(a.y + a.height, b.y + b.height)
    inter = max(0.0, right - left) * max(0.0, bottom - top)
    union = a.width * a.height + b.width * b.height - inter
    return inter / union if union > 0 else 0.0


def distinct_faces(boxes: list[models.FaceBox]) -> list[models.FaceBox]:
    """One box per face: the best-scored of boxes that overlap (both detectors, one face)."""
    kept: list[models.FaceBox] = []
    for box in sorted(boxes, key=lambda b: b.score, reverse=True):
        if all(_iou(box, other) < SAME_FACE_IOU for other in kept):
            kept.append(box)
    return kept


def face_boxes(rgb: Image8) -> list[models.FaceBox]:
    """The distinct faces both detectors find, in full-size pixels (looked for at FACE_SIDE)."""
    h, w = rgb.shape[:2]
    face_scale = min(1.0, FACE_SIDE / max(h, w))
    face_rgb = (
        cv2.resize(rgb, (round(w * face_scale), round(h * face_scale)),
                   interpolation=cv2.INTER_AREA)
        if face_scale < 1
        else rgb
    )
    found = distinct_faces(models.faces(np.ascontiguousarray(face_rgb)))
    return [models.FaceBox(b.x / face_scale, b.y / face_scale, b.width / face_scale,
                           b.height / face_scale, b.score) for b in found]
