"""Finding the subject of a photo: a person (pose model) or a garment on a plain backdrop."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import ImageTooSmall, NoSubjectFound
from engine import matting, models
from engine.compose import Cutout

MIN_SIDE = 256
WORK_SIDE = 512  # models look at this size; mattes are refined at full size


@dataclass(frozen=True)
class Subject:
    cutout: Cutout
    pose: models.Pose | None  # landmarks scaled to the full-size photo
    backdrop: matting.Backdrop


def check_size(rgb: np.ndarray, what: str = "The image") -> None:
    h, w = rgb.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageTooSmall(
            f"{what} is {w}x{h}; it needs at least {MIN_SIDE} pixels on its short side."
        )


def work_copy(rgb: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = rgb.shape[:2]
    scale = WORK_SIDE / max(h, w)
    if scale >= 1:
        return rgb, 1.0
    small = cv2.resize(rgb, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return small, scale


def detect_person(small: np.ndarray, scale: float) -> models.Pose | None:
    """A person whose shoulders are clearly visible; landmarks in full-size pixels."""
    found = models.pose(small)
    if found is None:
        return None
    shoulders = found.visibility[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER]]
    if shoulders.min() < 0.6 or float((found.mask > 0.5).mean()) < 0.10:
        return None
    # A face printed on a T-shirt can fool the pose model; a real body has its hips well
    # below its shoulders (seen here: 1.4-1.8 shoulder widths for people, < 0 for prints).
    points = found.points
    width = float(np.linalg.norm(points[models.LEFT_SHOULDER] - points[models.RIGHT_SHOULDER]))
    drop = (
        points[[models.LEFT_HIP, models.RIGHT_HIP], 1].mean()
        - points[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean()
    )
    if width < 1 or not 0.8 < drop / width < 2.6:
        return None
    return models.Pose(found.points / scale, found.visibility, found.mask)


def _feet_visible(pose: models.Pose, height: int) -> bool:
    feet = [models.LEFT_HEEL, models.RIGHT_HEEL, models.LEFT_FOOT, models.RIGHT_FOOT]
    return bool(pose.visibility[feet].mean() > 0.5 and pose.points[feet, 1].max() < 0.985 * height)


def person_coarse(
    rgb: np.ndarray, small: np.ndarray, pose: models.Pose, back: matting.Backdrop
) -> np.ndarray:
    h, w = rgb.shape[:2]
    model_mask = np.maximum(pose.mask, models.selfie_mask(small))
    model_mask = cv2.resize(model_mask, (w, h), interpolation=cv2.INTER_LINEAR)
    if not back.plain:
        return model_mask
    # In a studio the backdrop's colour gives finer edges (hair); trust it near the person.
    # "Near the person": dilated at the model's own resolution, which is much cheaper.
    sh, sw = small.shape[:2]
    near_small = cv2.dilate(
        (cv2.resize(model_mask, (sw, sh)) > 0.3).astype(np.uint8),
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (sh // 30 | 1,) * 2),
    )
    near = cv2.resize(near_small, (w, h), interpolation=cv2.INTER_NEAREST)
    distance = matting.colour_distance_matte(rgb, back) * near
    return np.maximum(model_mask * (model_mask > 0.7), distance).astype(np.float32)


def garment_coarse(rgb: np.ndarray, back: matting.Backdrop) -> np.ndarray:
    distance = matting.colour_distance_matte(rgb, back)
    kept = matting.clean_mask(distance)
    # Inside the kept blobs the garment is solid even where it matches the backdrop's colour.
    solid = cv2.erode(kept, np.ones((5, 5), np.uint8)).astype(np.float32)
    return np.maximum(distance * kept, solid)


def find_subject(rgb: np.ndarray, want: str | None = None) -> Subject:
    """The photo's subject with a refined, decontaminated matte.

    `want` forces "person" or "garment"; by default a clearly visible person wins.
    """
    check_size(rgb)
    h, w = rgb.shape[:2]
    small, scale = work_copy(rgb)
    back = matting.backdrop(rgb)
    pose = detect_person(small, scale) if want != "garment" else None
    if pose is not None:
        coarse = person_coarse(rgb, small, pose, back)
        kind = "person"
    elif want == "person":
        raise NoSubjectFound("No person was found in the photo.")
    elif back.plain:
        coarse = garment_coarse(rgb, back)
        kind = "garment"
    else:
        raise NoSubjectFound(
            "No person or garment could be found. Use a photo of a person, or of a garment "
            "on a plain background."
        )
    alpha = matting.refine(rgb, coarse)
    share = float((alpha > 0.5).mean())
    if share < 0.02 or share > 0.97:
        raise NoSubjectFound(
            "No person or garment could be separated from the background in this photo."
        )
    clean = matting.decontaminate(rgb, alpha)
    cut = Cutout(clean, alpha, kind, pose is not None and _feet_visible(pose, h))
    return Subject(cut, pose, back)
