"""What a photo shows and what it can become, before anything is charged (core/photos/analysis.py).

The same models and rules the engine renders with, asked the cheap questions only (the pose,
the face detectors, the backdrop, the segmentation once): is it a person or a garment, how many
people, which way they face, how much of the face is in the photo, what kind of garment. A model
swap of a person needs what identity_swap needs (one person, the body facing the camera, the
whole face); of a garment, a garment class place_garment can dress. Background replace needs
only something to cut out.

Calibrated on ../shared/fixtures/images (tests/integration/engine/test_photo_analysis.py):
- the shoulders' order says which way a person faces: the pose model names the person's left
  shoulder, which a camera in front sees on the right (left.x - right.x > 0; front views here
  give +0.46..+0.85 torso lengths), a camera behind on the left (-0.62..-0.72 for backs); a
  turned body shows narrow shoulders in between;
- a face counts as in the photo when the eyes and the mouth lie inside the frame (the VITON
  torso shots cut the head at the nose: their faces are "cropped").
"""

from __future__ import annotations

import numpy as np

from core.photos.analysis import (
    BACK,
    BODY_SWAP,
    BURST_REPLACE,
    FACE_CROPPED,
    FACE_CUT_OFF,
    FACE_FULL,
    FACE_NONE,
    FRONT,
    GARMENT,
    NEITHER,
    NO_FACE,
    NOT_FACING,
    NOTHING_TO_CUT_OUT,
    PERSON,
    SEEN_FROM_BEHIND,
    SEEN_FROM_SIDE,
    SEVERAL_PEOPLE,
    SIDE,
    UNKNOWN_GARMENT,
    Capability,
    PhotoAnalysis,
)
from core.photos.tone_match import lab_from_opencv
from engine import analysis, matting, models
from engine.arrays import BoolMask, Image8
from engine.digital_model import face_points
from engine.digital_model import tone as skin_tone
from engine.people import face_boxes, segment_people
from engine.swap_garment import UNKNOWN, classify_garment

# Shoulder order (left.x - right.x) over the torso's length: at least this facing the camera,
# at most minus this facing away, in between turned to the side.
FACING = 0.3
# A turned person on a plain backdrop (the pose check wants a frontal torso): their pose mask
# covers at least this share of the photo and their hips lie below their shoulders. A face
# printed on a T-shirt has its "hips" above its "shoulders".
TURNED_MIN_MASK = 0.12
# The eyes and the mouth this far inside the frame (share of the side): the face is in it.
FACE_MARGIN = 0.005
EYES = [2, 5]  # the pose model's left and right eye centres
MOUTH = [9, 10]  # the corners of the mouth
# A garment cut-out covers this share of the photo at least (and leaves some backdrop).
GARMENT_SHARE = (0.02, 0.97)
# ... and does not cover this share of two edges of the frame.
EDGE_COVER = 0.05
# A cut-out this many times wider than tall, running out at a side, is a landscape band.
BAND_ASPECT = 3.0


def _torso(pose: models.Pose) -> float:
    p = pose.points
    shoulders = (p[models.LEFT_SHOULDER] + p[models.RIGHT_SHOULDER]) / 2
    hips = (p[models.LEFT_HIP] + p[models.RIGHT_HIP]) / 2
    return float(np.linalg.norm(shoulders - hips))


def facing(pose: models.Pose) -> str:
    """FRONT, SIDE or BACK from the order of the shoulders (see the module's notes)."""
    p = pose.points
    order = float(p[models.LEFT_SHOULDER, 0] - p[models.RIGHT_SHOULDER, 0]) / max(_torso(pose), 1)
    if order >= FACING:
        return FRONT
    if order <= -FACING:
        return BACK
    return SIDE


def _turned_person(found: models.Pose | None) -> bool:
    """A person the frontal check refused but who is one: turned away or sideways, with a real
    body (hips below the shoulders) filling a good part of the photo."""
    if found is None or float((found.mask > 0.5).mean()) < TURNED_MIN_MASK:
        return False
    p = found.points
    shoulders_y = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean()
    hips_y = p[[models.LEFT_HIP, models.RIGHT_HIP], 1].mean()
    return bool(hips_y - shoulders_y > 0.5 * _torso(found)) and facing(found) != FRONT


def _face(pose: models.Pose, shape: tuple[int, ...], faces: list[models.FaceBox]) -> str:
    """How much of the pose's face the photo holds."""
    h, w = shape[:2]
    points = pose.points[EYES + MOUTH]
    inside = (
        (points[:, 0] >= FACE_MARGIN * w) & (points[:, 0] <= (1 - FACE_MARGIN) * w)
        & (points[:, 1] >= FACE_MARGIN * h) & (points[:, 1] <= (1 - FACE_MARGIN) * h)
    )
    nose = pose.points[models.NOSE]
    on_face = any(b.x <= nose[0] <= b.x + b.width and b.y <= nose[1] <= b.y + b.height
                  for b in faces)
    if inside.all() and on_face:
        return FACE_FULL
    if inside.any() or on_face:
        return FACE_CROPPED
    return FACE_NONE


def _people_on(mask: BoolMask, faces: list[models.FaceBox], shape: tuple[int, ...]) -> int:
    """Faces that lie on the person segmentation (a face on a poster or a shirt does not)."""
    h, w = shape[:2]
    mh, mw = mask.shape[:2]
    count = 0
    for box in faces:
        x = int(np.clip((box.x + box.width / 2) / w * mw, 0, mw - 1))
        y = int(np.clip((box.y + box.height / 2) / h * mh, 0, mh - 1))
        count += bool(mask[y, x])
    return count


def analyse_photo(rgb: Image8) -> PhotoAnalysis:
    """The analysis of one photo (RGB, EXIF orientation applied, at least 256 px a side)."""
    small, scale = analysis.work_copy(rgb)
    back = matting.backdrop(rgb)
    found = models.pose(small)
    frontal = analysis.frontal_person(found, scale)
    poses = 0
    if back.plain:
        person = frontal is not None or _turned_person(found)
        people_mask = found.mask > 0.5 if person and found is not None else None
        faces = face_boxes(rgb) if person else []  # a garment needs none
    else:
        faces = face_boxes(rgb)
        segmented = segment_people(rgb, small, scale, found)
        people_mask = segmented.probability > 0.5 if segmented is not None else None
        poses = segmented.poses if segmented is not None else 0
        # The segmentation alone sees people in clouds and foliage (a sunset over fields):
        # a person in a scene is one the pose model or a face confirms.
        person = people_mask is not None and (
            poses > 0 or _people_on(people_mask, faces, rgb.shape) > 0)
    if person and people_mask is not None:
        people = max(1, poses, _people_on(people_mask, faces, rgb.shape))
        if frontal is not None:  # the catalog's rule too (count_people), on what is found
            people = max(people, analysis.people_seen(small, frontal, faces))
        return _person(rgb, scale, found, frontal, people, faces)
    if back.plain:
        return _garment(rgb, small, back)
    return _refused(NEITHER)


def _person(
    rgb: Image8,
    scale: float,
    found: models.Pose | None,
    frontal: models.Pose | None,
    people: int,
    faces: list[models.FaceBox],
) -> PhotoAnalysis:
    pose = frontal or (
        models.Pose(found.points / scale, found.visibility, found.mask)
        if found is not None else None
    )
    view = facing(pose) if pose is not None else (FRONT if faces else BACK)
    face = FACE_NONE if view == BACK or pose is None else _face(pose, rgb.shape, faces)
    if people > 1:
        swap = Capability(False, SEVERAL_PEOPLE.format(people=people))
    elif view == BACK:
        swap = Capability(False, SEEN_FROM_BEHIND)
    elif view == SIDE:
        swap = Capability(False, SEEN_FROM_SIDE)
    elif frontal is None:
        swap = Capability(False, NOT_FACING)
    elif face == FACE_CROPPED:
        swap = Capability(False, FACE_CUT_OFF)
    elif face == FACE_NONE:
        swap = Capability(False, NO_FACE)
    else:
        swap = Capability(True)
    return PhotoAnalysis(PERSON, people, view, face, None,
                         {BODY_SWAP: swap, BURST_REPLACE: Capability(True)},
                         tone=_tone(rgb, frontal) if swap.ok and frontal is not None else None)


def _tone(rgb: Image8, frontal: models.Pose) -> tuple[float, float, float] | None:
    """The person's skin tone as the model swap measures it (engine/digital_model.py: the face
    mesh on the head crop of the same frontal pose, then the cheeks), in CIE Lab; None when
    the face mesh finds no face (the swap then goes by the arms' colour, checked when it
    renders)."""
    points = face_points(rgb, frontal)
    return None if points is None else lab_from_opencv(skin_tone(rgb, points))


def _garment(rgb: Image8, small: Image8, back: matting.Backdrop) -> PhotoAnalysis:
    coarse, _interior, _distance = analysis.garment_coarse(rgb, small, back)
    mask = coarse > 0.5
    share = float(mask.mean())
    if (not GARMENT_SHARE[0] <= share <= GARMENT_SHARE[1] or _spans_frame(mask)
            or _landscape_band(mask)):
        return _refused(NEITHER)
    kind = classify_garment(coarse).kind
    swap = Capability(False, UNKNOWN_GARMENT) if kind == UNKNOWN else Capability(True)
    return PhotoAnalysis(GARMENT, 0, None, FACE_NONE, None if kind == UNKNOWN else kind,
                         {BODY_SWAP: swap, BURST_REPLACE: Capability(True)})


def _spans_frame(mask: BoolMask) -> bool:
    """Something that runs out of the frame on two sides (a wall, a floor in an empty studio):
    a set, not a garment laid out or on a mannequin (at most cut off at one edge)."""
    edges = (mask[0], mask[-1], mask[:, 0], mask[:, -1])
    return sum(float(line.mean()) >= EDGE_COVER for line in edges) >= 2


def _landscape_band(mask: BoolMask) -> bool:
    """A wide band that runs out of the frame at a side (hazy hills under a pale sky): a
    landscape, not a garment. A garment laid out or on a mannequin is at most about twice as
    wide as it is tall (a top with its sleeves spread); this band was over 3 times."""
    rows, cols = mask.any(axis=1).nonzero()[0], mask.any(axis=0).nonzero()[0]
    if rows.size == 0:
        return False
    height, width = rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1
    at_side = max(float(mask[:, 0].mean()), float(mask[:, -1].mean())) >= EDGE_COVER
    return at_side and width >= BAND_ASPECT * height


def _refused(kind: str) -> PhotoAnalysis:
    nothing = Capability(False, NOTHING_TO_CUT_OUT)
    return PhotoAnalysis(kind, 0, None, FACE_NONE, None,
                         {BODY_SWAP: nothing, BURST_REPLACE: nothing})
