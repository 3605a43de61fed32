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
OUTLINE_SIDE = 384  # a garment's outline is traced at this size (see garment_outline)


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


# count_people: faces are looked for at this size (the detectors work at 128-192 px anyway);
# another person is a piece of the person segmentation at least this share of the photo
# outside the main person; two face boxes overlapping this much (IoU) are one face.
FACE_SIDE = 1024
OTHER_PERSON_SHARE = 0.04
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


def _other_people(small: np.ndarray, pose: models.Pose) -> int:
    """Person-shaped regions of the segmentation that lie outside the pose model's person (the
    pose model sees only the most prominent one)."""
    main = cv2.dilate(
        (pose.mask > 0.5).astype(np.uint8), np.ones((15, 15), np.uint8)
    ).astype(bool)
    outside = ((models.selfie_mask(small) > 0.5) & ~main).astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(outside)
    smallest = OTHER_PERSON_SHARE * outside.size
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= smallest)


def count_people(rgb: np.ndarray) -> int:
    """How many people the photo shows, for vetting a digital model's photo.

    0 when no person is clearly visible (shoulders and hips, as find_subject needs); else the
    number of distinct faces or of separate person regions, whichever is larger, at least 1.
    """
    small, scale = work_copy(rgb)
    pose = detect_person(small, scale)
    if pose is None:
        return 0
    h, w = rgb.shape[:2]
    face_scale = min(1.0, FACE_SIDE / max(h, w))
    face_rgb = (
        cv2.resize(rgb, (round(w * face_scale), round(h * face_scale)),
                   interpolation=cv2.INTER_AREA)
        if face_scale < 1
        else rgb
    )
    faces = distinct_faces(models.faces(np.ascontiguousarray(face_rgb)))
    return max(len(faces), 1 + _other_people(small, pose))


def _feet_visible(pose: models.Pose, height: int) -> bool:
    feet = [models.LEFT_HEEL, models.RIGHT_HEEL, models.LEFT_FOOT, models.RIGHT_FOOT]
    return bool(pose.visibility[feet].mean() > 0.5 and pose.points[feet, 1].max() < 0.985 * height)


def person_coarse(
    rgb: np.ndarray, small: np.ndarray, pose: models.Pose, back: matting.Backdrop
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Coarse person mask (full size), and on a plain backdrop its sure interior and the
    colour-distance matte (see `tighten`)."""
    h, w = rgb.shape[:2]
    sh, sw = small.shape[:2]
    if not back.plain:
        # A real scene behind the person: the models are all there is; two agree better.
        model_small = np.maximum(pose.mask, models.selfie_mask(small))
        return cv2.resize(model_small, (w, h), interpolation=cv2.INTER_LINEAR), None, None
    # In a studio the backdrop's colour gives finer edges (hair) than any model at 256 px;
    # trust it near the person, as the pose model's own mask places the person.
    model_small = pose.mask
    near_small = cv2.dilate(
        (model_small > 0.3).astype(np.uint8),
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (sh // 30 | 1,) * 2),
    )
    near = cv2.resize(near_small, (w, h), interpolation=cv2.INTER_NEAREST)
    # The model's mask is blurry at its 256 px and reaches past the body's edge (a grey halo
    # in the cut-out), so only its eroded core counts; the colour distance draws the edge.
    core_small = cv2.erode(
        (model_small > 0.7).astype(np.uint8),
        cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (sh // 60 | 1,) * 2),
    )
    core = cv2.resize(core_small, (w, h), interpolation=cv2.INTER_NEAREST)
    distance = matting.colour_distance_matte(rgb, back, matting.PERSON_WEIGHTS)
    coarse = np.maximum(core.astype(np.float32), distance * near).astype(np.float32)
    return coarse, core, distance


def garment_outline(small_rgb: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """The garment's filled silhouette (uint8 0/1, working size), from colour and edges.

    Colour distance alone loses a white garment on a light backdrop (they differ by a few
    levels over large areas), but the garment's outline is still an edge: edges at a reduced
    size close the silhouette, and hole filling makes its inside solid.
    """
    # At a long side of OUTLINE_SIDE: small enough that JPEG noise makes few edges and that
    # the closing below bridges the faint stretches of the outline, large enough that the
    # outline itself survives.
    sh, sw = small_rgb.shape[:2]
    scale = OUTLINE_SIDE / max(sh, sw)
    size = (max(8, round(sw * scale)), max(8, round(sh * scale)))
    grey = cv2.cvtColor(
        cv2.resize(small_rgb, size, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY
    )
    edges = cv2.Canny(cv2.GaussianBlur(grey, (3, 3), 0), 10, 30) > 0
    small = cv2.resize(distance, size, interpolation=cv2.INTER_AREA) > 0.5
    joined = (small | edges).astype(np.uint8)
    # Keep what the colour says is garment plus the edges that touch it: stray edges far
    # from the garment (backdrop texture, JPEG noise) are dropped.
    grown = cv2.dilate(small.astype(np.uint8), np.ones((9, 9), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    touching = np.unique(labels[(grown > 0) & (joined > 0)])
    keep = np.zeros(count, np.uint8)
    keep[touching] = 1
    keep[0] = 0
    outline = keep[labels]
    # Close the outline's gaps (a few pixels where the edge is faintest) before filling.
    closed = cv2.morphologyEx(
        outline, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    )
    filled = matting.clean_mask(closed.astype(np.float32))
    # Closing and filling grew the outline by about a pixel of the reduced size; take it back.
    filled = cv2.erode(filled, np.ones((3, 3), np.uint8))
    return np.asarray(cv2.resize(filled, (sw, sh), interpolation=cv2.INTER_NEAREST))


def garment_coarse(
    rgb: np.ndarray, small_rgb: np.ndarray, back: matting.Backdrop
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Coarse garment mask (full size), its sure interior and the colour-distance matte.

    The garment's shape (which blobs, holes filled) is decided at the working size, where
    the morphology is cheap; full size is only used for the soft colour matte at its edge.
    """
    h, w = rgb.shape[:2]
    sh, sw = small_rgb.shape[:2]
    distance = matting.colour_distance_matte(rgb, back)
    # Reduced from the full-size matte rather than computed on the reduced photo: averaging
    # the matte keeps a faint outline's partial values, averaging the photo first loses them.
    small_distance = cv2.resize(distance, (sw, sh), interpolation=cv2.INTER_AREA)
    kept = matting.clean_mask(small_distance)
    outline = garment_outline(small_rgb, small_distance)
    # The outline fills in what colour missed (a white garment on a light backdrop), but its
    # closing also bridges real gaps (between a hanging sleeve and the body), so it is only
    # used when colour clearly missed a large part of the garment.
    if cv2.countNonZero(outline) > 1.15 * cv2.countNonZero(kept):
        kept = np.maximum(kept, outline)
    # Inside the kept blobs the garment is solid even where it matches the backdrop's colour;
    # around them the colour matte may add soft edge pixels.
    solid_small = cv2.erode(kept, np.ones((3, 3), np.uint8))
    grown_small = cv2.dilate(kept, np.ones((3, 3), np.uint8))
    solid = cv2.resize(solid_small, (w, h), interpolation=cv2.INTER_NEAREST)
    grown = cv2.resize(grown_small, (w, h), interpolation=cv2.INTER_NEAREST)
    coarse = np.maximum(distance * grown, solid.astype(np.float32))
    return coarse.astype(np.float32), solid, distance


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
        coarse, interior, distance = person_coarse(rgb, small, pose, back)
        kind = "person"
    elif want == "person":
        raise NoSubjectFound("No person was found in the photo.")
    elif back.plain:
        coarse, interior, distance = garment_coarse(rgb, small, back)
        kind = "garment"
    else:
        raise NoSubjectFound(
            "No person or garment could be found. Use a photo of a person, or of a garment "
            "on a plain background."
        )
    alpha = matting.refine(rgb, coarse)
    if interior is not None and distance is not None:
        alpha = matting.tighten(alpha, interior, distance)
    share = float((alpha > 0.5).mean())
    if share < 0.02 or share > 0.97:
        raise NoSubjectFound(
            "No person or garment could be separated from the background in this photo."
        )
    clean = matting.decontaminate(rgb, alpha)
    cut = Cutout(clean, alpha, kind, pose is not None and _feet_visible(pose, h))
    return Subject(cut, pose, back)
