"""Finding the subject of a photo: a person (pose model) or a garment on a plain backdrop."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import ImageTooSmall, NoSubjectFound
from engine import matting, models, reflection, sheer
from engine.arrays import Image8, Mask
from engine.compose import Cutout
from engine.people import (
    STUDIO_TILE_ASPECT,
    People,
    face_boxes,
    segment_people,
    segment_tiled,
)

MIN_SIDE = 256
WORK_SIDE = 512  # models look at this size; mattes are refined at full size
OUTLINE_SIDE = 384  # a garment's outline is traced at this size (see garment_outline)


@dataclass(frozen=True)
class Subject:
    cutout: Cutout
    pose: models.Pose | None  # landmarks scaled to the full-size photo
    backdrop: matting.Backdrop


def check_size(rgb: Image8, what: str = "The image") -> None:
    h, w = rgb.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise ImageTooSmall(
            f"{what} is {w}x{h}; it needs at least {MIN_SIDE} pixels on its short side."
        )


def work_copy(rgb: Image8) -> tuple[Image8, float]:
    h, w = rgb.shape[:2]
    scale = WORK_SIDE / max(h, w)
    if scale >= 1:
        return rgb, 1.0
    small = cv2.resize(rgb, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.uint8), scale


def detect_person(small: Image8, scale: float) -> models.Pose | None:
    """A person whose shoulders are clearly visible; landmarks in full-size pixels."""
    return frontal_person(models.pose(small), scale)


def frontal_person(found: models.Pose | None, scale: float) -> models.Pose | None:
    """detect_person's check on the pose model's answer for the working copy."""
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


# count_people: another person is a piece of the person segmentation at least this share of
# the photo outside the main person.
OTHER_PERSON_SHARE = 0.04


def _other_people(small: Image8, pose: models.Pose) -> int:
    """Person-shaped regions of the segmentation that lie outside the pose model's person (the
    pose model sees only the most prominent one)."""
    main = cv2.dilate(
        (pose.mask > 0.5).astype(np.uint8), np.ones((15, 15), np.uint8)
    ).astype(bool)
    outside = ((models.selfie_mask(small) > 0.5) & ~main).astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(outside)
    smallest = OTHER_PERSON_SHARE * outside.size
    return sum(1 for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= smallest)


def count_people(rgb: Image8) -> int:
    """How many people the photo shows, for vetting a digital model's photo.

    0 when no person is clearly visible (shoulders and hips, as find_subject needs); else the
    number of distinct faces or of separate person regions, whichever is larger, at least 1.
    """
    small, scale = work_copy(rgb)
    pose = detect_person(small, scale)
    if pose is None:
        return 0
    return people_seen(small, pose, face_boxes(rgb))


def people_seen(small: Image8, pose: models.Pose, faces: list[models.FaceBox]) -> int:
    """count_people's rule for a photo whose person passed the pose check: the distinct faces
    or the separate person regions, whichever are more."""
    return max(len(faces), 1 + _other_people(small, pose))


def _feet_visible(pose: models.Pose, height: int) -> bool:
    feet = [models.LEFT_HEEL, models.RIGHT_HEEL, models.LEFT_FOOT, models.RIGHT_FOOT]
    return bool(pose.visibility[feet].mean() > 0.5 and pose.points[feet, 1].max() < 0.985 * height)


def _studio_group(small: Image8, pose: models.Pose) -> Mask:
    """The pose model's person plus anyone else beside them (the pose model sees only the most
    prominent person): regions of the selfie models' mask outside that person, as large as
    count_people's other people."""
    main = cv2.dilate(
        (pose.mask > 0.5).astype(np.uint8), np.ones((15, 15), np.uint8)
    ).astype(bool)
    # Only the rough place of the others is needed here (the backdrop's colour draws their
    # edges), so a 3:4 studio photo is one window, not two: half the cost.
    probability = segment_tiled(small, STUDIO_TILE_ASPECT)
    outside = ((probability > 0.5) & ~main).astype(np.uint8)
    count, labels, stats, _centres = cv2.connectedComponentsWithStats(outside)
    keep = np.zeros(count, np.float32)
    for i in range(1, count):
        keep[i] = float(stats[i, cv2.CC_STAT_AREA] >= OTHER_PERSON_SHARE * outside.size)
    if not keep.any():
        return pose.mask
    others = cv2.dilate(keep[labels], np.ones((7, 7), np.uint8))
    return np.maximum(pose.mask, probability * others).astype(np.float32)


LEFT_KNEE, RIGHT_KNEE = 25, 26  # pose landmarks
SHADOW_GAP = 0.012  # of the photo's height: how far from the body a torso-high shadow starts


def _shadow_zone(pose: models.Pose, shape: tuple[int, int]) -> Image8:
    """Where the backdrop may carry the person's cast shadow or the floor's darker patch
    (uint8 0/1, full size): never inside the pose model's person (a darker grey there is more
    likely a garment's shade or a print), never above the shoulders (the soft edge of hair is
    darker than the backdrop too); from the knees down right up to the body (a floor shadow
    touches the feet), between shoulders and knees only a little away from it (a white sleeve's
    shaded edge looks like a shadow)."""
    h, w = shape
    body = cv2.resize((pose.mask > 0.5).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    zone = np.zeros((h, w), np.uint8)
    p, seen = pose.points, pose.visibility
    shoulders = int(np.clip(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].max(), 0, h))
    gap = max(3, round(SHADOW_GAP * h)) | 1
    away = cv2.dilate(body, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (gap, gap)))
    zone[shoulders:] = 1 - away[shoulders:]
    knees = p[[LEFT_KNEE, RIGHT_KNEE], 1][seen[[LEFT_KNEE, RIGHT_KNEE]] >= 0.5]
    if len(knees):
        top = int(np.clip(knees.min(), 0, h))
        zone[top:] = 1 - body[top:]
    return zone


def person_coarse(
    rgb: Image8,
    small: Image8,
    pose: models.Pose | None,
    back: matting.Backdrop,
    people: People | None,
) -> tuple[Mask, Image8 | None, Mask | None]:
    """Coarse person mask (full size), and on a plain backdrop its sure interior and the
    colour-distance matte (see `tighten`)."""
    h, w = rgb.shape[:2]
    sh, sw = small.shape[:2]
    if not back.plain or pose is None:
        # A real scene behind the people: the models are all there is.
        if people is not None:
            model_small = people.probability
        else:
            assert pose is not None
            model_small = np.maximum(pose.mask, models.person_probability(small))
        full = cv2.resize(model_small, (w, h), interpolation=cv2.INTER_LINEAR)
        return np.asarray(full, np.float32), None, None
    # In a studio the backdrop's colour gives finer edges (hair) than any model at 256 px;
    # trust it near the people, as the pose model's own mask places the person.
    model_small = _studio_group(small, pose)
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
    core = np.asarray(cv2.resize(core_small, (w, h), interpolation=cv2.INTER_NEAREST), np.uint8)
    distance = matting.colour_distance_matte(
        rgb, back, matting.PERSON_WEIGHTS, _shadow_zone(pose, (h, w))
    )
    coarse = np.maximum(core.astype(np.float32), distance * near).astype(np.float32)
    return coarse, core, distance


def garment_outline(small_rgb: Image8, distance: Mask) -> Image8:
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
    filled = np.asarray(cv2.erode(filled, np.ones((3, 3), np.uint8)), np.uint8)
    return np.asarray(cv2.resize(filled, (sw, sh), interpolation=cv2.INTER_NEAREST))


def garment_coarse(
    rgb: Image8, small_rgb: Image8, back: matting.Backdrop
) -> tuple[Mask, Image8, Mask]:
    """Coarse garment mask (full size), its sure interior and the colour-distance matte.

    The garment's shape (which blobs, holes filled) is decided at the working size, where
    the morphology is cheap; full size is only used for the soft colour matte at its edge.
    """
    h, w = rgb.shape[:2]
    sh, sw = small_rgb.shape[:2]
    distance = matting.colour_distance_matte(rgb, back)
    # Reduced from the full-size matte rather than computed on the reduced photo: averaging
    # the matte keeps a faint outline's partial values, averaging the photo first loses them.
    reduced = cv2.resize(distance, (sw, sh), interpolation=cv2.INTER_AREA)
    small_distance = np.asarray(reduced, np.float32)
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
    solid = np.asarray(cv2.resize(solid_small, (w, h), interpolation=cv2.INTER_NEAREST), np.uint8)
    grown = cv2.resize(grown_small, (w, h), interpolation=cv2.INTER_NEAREST)
    coarse = np.maximum(distance * grown, solid.astype(np.float32))
    return coarse.astype(np.float32), solid, distance


FEET = [models.LEFT_HEEL, models.RIGHT_HEEL, models.LEFT_FOOT, models.RIGHT_FOOT]


def contact_row(pose: models.Pose, height: int) -> int | None:
    """The row where the feet meet the floor (the lowest seen heel or toe), or None when the
    feet are not in the photo (nothing below them to look for a reflection in)."""
    if not _feet_visible(pose, height):
        return None
    seen = pose.visibility[FEET] >= 0.5
    if not seen.any():
        return None
    return int(np.clip(pose.points[FEET, 1][seen].max(), 0, height - 1))


def _feet_in_frame(alpha: Mask) -> bool:
    """Without landmarks: the subject ends above the frame's bottom edge (a whole body, or at
    least one that is not cut off at the bottom)."""
    rows = np.nonzero((alpha > 0.5).any(axis=1))[0]
    return bool(len(rows) and rows.max() < 0.985 * alpha.shape[0])


def find_subject(rgb: Image8, want: str | None = None) -> Subject:
    """The photo's subject with a refined, decontaminated matte.

    `want` forces "person" or "garment"; by default a person wins. On a plain backdrop a
    person must pass the pose check (a garment shot there can look person-like to the
    segmentation models, and the backdrop's colour cuts out whatever is on it anyway); in a
    real scene anyone the segmentation models see counts, in any pose, several at once. Only
    a scene with no person in it, or a plain backdrop with nothing on it, is refused.
    """
    check_size(rgb)
    h, w = rgb.shape[:2]
    small, scale = work_copy(rgb)
    back = matting.backdrop(rgb)
    found = models.pose(small) if want != "garment" else None
    pose = frontal_person(found, scale)
    people = (
        segment_people(rgb, small, scale, found)
        if want != "garment" and not back.plain
        else None
    )
    if pose is not None or people is not None:
        coarse, interior, distance = person_coarse(rgb, small, pose, back, people)
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
    if back.plain and kind == "person" and pose is not None:
        contact = contact_row(pose, h)
        if contact is not None:
            alpha = reflection.floor_reflection(rgb, alpha, back, contact)
    if back.plain:
        alpha = matting.colour_line_alpha(rgb, alpha, back)
        alpha = sheer.sheer_alpha(rgb, alpha, back, kind == "person")
    share = float((alpha > 0.5).mean())
    if share < 0.02 or share > 0.97:
        raise NoSubjectFound(
            "No person or garment could be separated from the background in this photo."
        )
    clean = matting.decontaminate(rgb, alpha)
    if kind != "person":
        feet = False
    elif pose is not None:
        feet = _feet_visible(pose, h)
    else:
        feet = _feet_in_frame(alpha)
    cut = Cutout(clean, alpha, kind, feet)
    return Subject(cut, pose, back)


def swap_subject(rgb: Image8) -> Subject:
    """The subject of a model swap's photo, for either engine: a person facing the camera (with
    the pose the swap needs) or a garment; NoSubjectFound with what to do instead."""
    try:
        subject = find_subject(rgb)
    except NoSubjectFound:
        raise NoSubjectFound(
            "No person or garment was found in the photo. Use a photo of a person wearing "
            "the garment, or of the garment alone on a plain background."
        ) from None
    if subject.cutout.kind == "person" and subject.pose is None:
        # Cut out from the segmentation alone (seen from the back, in profile, seated, a
        # group): fine for a new background, but the swap needs the body's landmarks.
        raise NoSubjectFound(
            "The person in the photo could not be analysed for a model swap (the body "
            "must face the camera with both shoulders in view). Use a photo of one person "
            "facing the camera, or of the garment alone on a plain background."
        )
    return subject
