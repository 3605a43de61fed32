"""What the engine needs to know about a person photo: body pose, matte, face, skin.

Used for the digital model in both swaps and for the person in an on-model photo. Catalog
models are reused for many jobs, so their analysis is cached by image content (a pure function
of the pixels, so caching cannot change any output).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import NoPersonFound
from engine import models
from engine.analysis import Subject, detect_person, find_subject, work_copy
from engine.arrays import Float32, Floats, Image8, Mask

# Face mesh indices of the face outline (forehead to chin), for the blend mask.
FACE_OVAL = [
    10,
    338,
    297,
    332,
    284,
    251,
    389,
    356,
    454,
    323,
    361,
    288,
    397,
    365,
    379,
    378,
    400,
    377,
    152,
    148,
    176,
    149,
    150,
    136,
    172,
    58,
    132,
    93,
    234,
    127,
    162,
    21,
    54,
    103,
    67,
    109,
]
# Inner-cheek points whose colour stands for the skin tone.
CHEEKS = [50, 101, 118, 117, 280, 330, 347, 346]
FACE_CROP_SIDE = 256  # face mesh sees the head at this size, whatever the photo's size


@dataclass(frozen=True)
class Person:
    rgb: Image8
    subject: Subject  # matte (cutout.alpha) and pose (full-size landmarks)
    pose: models.Pose
    face: Float32 | None  # (468, 2) face mesh points in full-size pixels
    tone: Float32 | None  # Lab skin tone from the cheeks
    skin: Mask  # float32 0/1: visible skin inside the person


def face_points(rgb: Image8, pose: models.Pose | None = None) -> Float32 | None:
    """Face mesh points in full-size pixels, or None.

    With a pose the head is cropped first: on a full-length photo the face is ~60 px wide at
    the models' working size, too small for precise landmarks; the crop gives face mesh the
    whole head at FACE_CROP_SIDE.
    """
    h, w = rgb.shape[:2]
    if pose is not None:
        head = pose.points[[models.NOSE, 7, 8]]  # nose and both ears
        if pose.visibility[[models.NOSE, 7, 8]].min() > 0.5 and 0 < head[0, 1] < h:
            span = float(np.linalg.norm(pose.points[7] - pose.points[8]))
            shoulders = float(
                np.linalg.norm(
                    pose.points[models.LEFT_SHOULDER] - pose.points[models.RIGHT_SHOULDER]
                )
            )
            side = int(max(2.6 * span, 0.9 * shoulders, 64))
            cx, cy = int(head[0, 0]), int(head[0, 1])
            x0, y0 = max(0, cx - side // 2), max(0, cy - side // 2)
            x1, y1 = min(w, x0 + side), min(h, y0 + side)
            crop = rgb[y0:y1, x0:x1]
            if crop.shape[0] > 32 and crop.shape[1] > 32:
                scale = FACE_CROP_SIDE / max(crop.shape[:2])
                resized = cv2.resize(
                    crop,
                    (max(1, round(crop.shape[1] * scale)), max(1, round(crop.shape[0] * scale))),
                    interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
                )
                points = models.face_landmarks(np.ascontiguousarray(resized))
                if points is not None:
                    return points / scale + np.array([x0, y0], np.float32)
    small, scale = work_copy(rgb)
    points = models.face_landmarks(small)
    return None if points is None else points / scale


def tone(rgb: Image8, points: Float32) -> Float32:
    """Median Lab colour of the cheeks."""
    h, w = rgb.shape[:2]
    radius = max(2, int(np.linalg.norm(points[234] - points[454]) * 0.04))
    samples = []
    for index in CHEEKS:
        x, y = np.clip(points[index], [radius, radius], [w - radius - 1, h - radius - 1]).astype(
            int
        )
        patch = rgb[y - radius : y + radius + 1, x - radius : x + radius + 1]
        samples.append(cv2.cvtColor(patch, cv2.COLOR_RGB2LAB).reshape(-1, 3))
    return np.asarray(np.median(np.concatenate(samples), axis=0), np.float32)


def skin_mask(rgb: Image8, person: Floats, reference: Float32 | None) -> Mask:
    """Likely skin inside the person (float32 0..1, soft).

    With a reference tone (Lab, from the person's own cheeks) skin is what is close to it, which
    works for every skin tone; lightness counts a quarter (shading on an arm changes lightness
    far more than colour), and the weight falls off softly so recolouring leaves no blotches
    where a highlight or a shadow is just outside the tolerance. Without a reference, the
    classic YCrCb ranges.
    """
    if reference is not None:
        lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
        diff = cv2.subtract(lab, np.full_like(lab, reference))
        weighted = cv2.transform(cv2.multiply(diff, diff), np.array([[0.15, 1.0, 1.0]], np.float32))
        skin = np.clip((24.0 - cv2.sqrt(weighted)) / 8.0, 0.0, 1.0)
        # Skin always has some colour; white, grey and black fabric have almost none, and with
        # lightness counting little they would otherwise pass for skin in shadow or light.
        chroma = cv2.magnitude(lab[..., 1] - 128.0, lab[..., 2] - 128.0)
        reference_chroma = max(6.0, float(np.hypot(reference[1] - 128.0, reference[2] - 128.0)))
        skin *= np.clip((chroma - 0.35 * reference_chroma) / (0.2 * reference_chroma), 0.0, 1.0)
    else:
        ycrcb = cv2.cvtColor(rgb, cv2.COLOR_RGB2YCrCb)
        skin = (cv2.inRange(ycrcb, (20, 133, 77), (255, 180, 135)) > 0).astype(np.float32)
    skin = skin * (person > 0.5)
    # Drop specks (a print's skin-coloured dots): what survives an opening of the hard core.
    core = cv2.morphologyEx(
        (skin > 0.5).astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)
    )
    near = cv2.dilate(core, np.ones((5, 5), np.uint8))
    return (skin * near).astype(np.float32)


def _line(mask: Image8, a: Floats, b: Floats, radius: float) -> None:
    cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1, max(1, int(2 * radius)))


def arm_regions(shape: tuple[int, ...], pose: models.Pose) -> Image8:
    """The arms' and hands' part of `bare_regions` (uint8 0/1)."""
    regions = np.zeros(shape[:2], np.uint8)
    _arms(regions, pose)
    return regions


def _arms(regions: Image8, pose: models.Pose) -> None:
    p = pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    for shoulder, elbow, wrist, fingers in (
        (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST, (17, 19, 21)),
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST, (18, 20, 22)),
    ):
        _line(regions, p[shoulder], p[elbow], 0.2 * width)
        _line(regions, p[elbow], p[wrist], 0.16 * width)
        for finger in fingers:
            _line(regions, p[wrist], p[finger], 0.12 * width)
        cv2.circle(regions, (int(p[wrist][0]), int(p[wrist][1])), int(0.15 * width), 1, -1)


def bare_regions(shape: tuple[int, ...], pose: models.Pose, face: Float32 | None) -> Image8:
    """Where visible skin is looked for (uint8 0/1): face, neck and neckline, arms and hands.

    Skin colour alone is not enough: beige trousers, a tan print or light-brown hair can sit
    within a skin tone's tolerance, and garment pixels must not change. Legs and midriff are
    separate (`covered_regions`): clothes cover them more often than not, so their skin test is
    stricter.
    """
    h, w = shape[:2]
    p = pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    regions = np.zeros((h, w), np.uint8)
    _arms(regions, pose)
    # Neck and neckline: from the jaw down to a little below the shoulder line.
    if face is not None:
        jaw = face[[172, 152, 397]]
        neck_top = float(jaw[:, 1].min())
    else:
        neck_top = float(p[models.NOSE, 1])
    left, right = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    drop = np.array([0.0, 0.35 * width], np.float32)
    centre_x = float((left[0] + right[0]) / 2)
    polygon = np.array(
        [
            [centre_x - 0.3 * width, neck_top],
            [centre_x + 0.3 * width, neck_top],
            right + drop,
            left + drop,
        ],
        np.int32,
    )
    cv2.fillConvexPoly(regions, polygon, 1)
    if face is not None:
        cv2.fillConvexPoly(regions, cv2.convexHull(face[FACE_OVAL].astype(np.int32)), 1)
    return regions


# Pose indices of the knees (models.py names hips and ankles only).
LEFT_KNEE, RIGHT_KNEE = 25, 26
# A leg bone is only used when both its ends are this visible (a leg cut by the frame is not
# guessed at).
LEG_VISIBILITY = 0.5
# Legs and midriff are more often covered than bare, and a garment there may be close to skin
# in colour (beige trousers, a nude top), so their skin is held to more than `skin_mask`:
# - lightness within this much of the reference tone (OpenCV Lab L, 0-255): the general test
#   counts lightness little, which lets beige trousers pass on a darker skin;
# - smooth: a patch of bare skin has a median local spread of lightness (7x7, 0-255 levels) of
#   2-6 on the fixtures, an animal or geometric print in skin tones 40-55;
# - a patch of some size (at least this many shoulder-widths squared: a thigh below a mini skirt
#   is ~0.1, a bare midriff ~0.05; specks between a print's spots are far smaller);
# - its median colour within this ΔE (CIE76) of the person's own skin on arms, neck and face.
BODY_LIGHTNESS = 28.0
BODY_TEXTURE = 12.0
BODY_MIN_AREA = 0.02
BODY_MATCH_DE = 12.0


def covered_regions(shape: tuple[int, ...], pose: models.Pose) -> Image8:
    """Where bare skin is looked for beyond `bare_regions` (uint8 0/1): the torso between the
    shoulders and the hips (a midriff under a crop top) and the visible thigh and shin bones."""
    h, w = shape[:2]
    p, seen = pose.points, pose.visibility
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    regions = np.zeros((h, w), np.uint8)
    torso = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER, models.RIGHT_HIP, models.LEFT_HIP]]
    cv2.fillConvexPoly(regions, torso.astype(np.int32), 1)
    for hip, knee, ankle in (
        (models.LEFT_HIP, LEFT_KNEE, models.LEFT_ANKLE),
        (models.RIGHT_HIP, RIGHT_KNEE, models.RIGHT_ANKLE),
    ):
        for a, b, radius in ((hip, knee, 0.3), (knee, ankle, 0.22)):
            if min(seen[a], seen[b]) > LEG_VISIBILITY:
                _line(regions, p[a], p[b], radius * width)
    return regions


def _cie(lab8: Floats) -> Floats:
    """OpenCV 8-bit Lab values (..., 3) in CIE units."""
    return (lab8.astype(np.float32) - np.array([0.0, 128.0, 128.0], np.float32)) * np.array(
        [100.0 / 255.0, 1.0, 1.0], np.float32
    )


def covered_skin(
    rgb: Image8,
    where: Floats,
    reference: Float32,
    own_skin: Floats | None,
    width: float,
) -> Mask:
    """Bare skin inside `where` (float32 0..1) held to the tests above. `reference` is the tone
    (Lab), `own_skin` the median Lab of the person's confirmed skin, `width` the shoulders'.

    Worked out in the region's box only."""
    out = np.zeros(where.shape, np.float32)
    x, y, w, h = cv2.boundingRect((where > 0.5).astype(np.uint8))
    if w < 8 or h < 8:
        return out
    box = (slice(y, y + h), slice(x, x + w))
    crop = np.ascontiguousarray(rgb[box])
    skin = skin_mask(crop, where[box], reference)
    lab = cv2.cvtColor(crop, cv2.COLOR_RGB2LAB)
    near = np.clip((BODY_LIGHTNESS - np.abs(lab[..., 0] - float(reference[0]))) / 8.0, 0, 1)
    skin *= near
    count, labels, stats, _ = cv2.connectedComponentsWithStats((skin > 0.5).astype(np.uint8))
    if count < 2:
        return out
    grey = cv2.cvtColor(crop, cv2.COLOR_RGB2GRAY).astype(np.float32)
    mean = cv2.blur(grey, (7, 7))
    spread = np.sqrt(np.maximum(cv2.blur(grey * grey, (7, 7)) - mean * mean, 0.0))
    target = _cie(own_skin if own_skin is not None else reference)
    keep = np.zeros(count, np.float32)
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < BODY_MIN_AREA * width**2:
            continue
        inside = labels == i
        if float(np.median(spread[inside])) >= BODY_TEXTURE:
            continue
        colour = _cie(np.median(lab[inside], axis=0))
        if float(np.linalg.norm(colour - target)) < BODY_MATCH_DE:
            keep[i] = 1.0
    # Soft edges stay where a kept patch is.
    near_kept = cv2.dilate(keep[labels], np.ones((5, 5), np.uint8))
    out[box] = skin * near_kept
    return out


def analyse_person(rgb: Image8, subject: Subject | None = None) -> Person:
    """Pose, matte, face and skin of the person in `rgb`; NoPersonFound if there is none."""
    if subject is None or subject.pose is None:
        small, scale = work_copy(rgb)
        if detect_person(small, scale) is None:
            raise NoPersonFound(
                "No person could be found in the model photo; choose another model."
            )
        subject = find_subject(rgb, want="person")
    assert subject.pose is not None
    face = face_points(rgb, subject.pose)
    regions = bare_regions(rgb.shape, subject.pose, face)
    person = subject.cutout.alpha * regions
    skin_tone = tone(rgb, face) if face is not None else None
    if skin_tone is None:
        # No face (cropped at the chin): the tone of what looks like skin on the arms and
        # neck, by the classic YCrCb ranges, then the same tolerance as with a face.
        rough = skin_mask(rgb, person, None) > 0.5
        # The neck region reaches up to where the face would be, so with the face cut off it
        # holds hair and lips too (a darker "tone"); arms and hands give it cleanly when shown.
        arms = rough & (arm_regions(rgb.shape, subject.pose) > 0)
        if cv2.countNonZero(arms.astype(np.uint8)) > 200:
            rough = arms
        if cv2.countNonZero(rough.astype(np.uint8)) > 200:
            skin_tone = np.median(
                cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[rough].astype(np.float32), axis=0
            )
    skin = (
        skin_mask(rgb, person, skin_tone)
        if skin_tone is not None
        else np.zeros(rgb.shape[:2], np.float32)
    )
    if skin_tone is not None:
        # Bare legs and midriff take the same change as arms and neck (no hands-changed,
        # legs-not patchwork), under the stricter tests of `covered_skin`.
        covered = subject.cutout.alpha * covered_regions(rgb.shape, subject.pose) * (regions == 0)
        if covered.any():
            confirmed = skin > 0.9
            own = (
                np.median(
                    cv2.cvtColor(rgb[confirmed].reshape(-1, 1, 3), cv2.COLOR_RGB2LAB)[:, 0], axis=0
                )
                if cv2.countNonZero(confirmed.astype(np.uint8)) > 500
                else None
            )
            p = subject.pose.points
            width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
            skin = np.maximum(skin, covered_skin(rgb, covered, skin_tone, own, width))
    return Person(rgb, subject, subject.pose, face, skin_tone, skin)


_CACHE: OrderedDict[bytes, Person] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_SIZE = 6  # a catalog's worth of digital models; ~10 MB each at 768x1024


def digital_model(rgb: Image8) -> Person:
    """`analyse_person` for a catalog model, cached by the image's content."""
    key = hashlib.blake2b(rgb.tobytes(), digest_size=16).digest() + repr(rgb.shape).encode()
    with _CACHE_LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
            return found
    try:
        person = analyse_person(rgb)
    except NoPersonFound:
        raise NoPersonFound(
            "No person could be found in the chosen model photo; choose another model."
        ) from None
    if person.face is None:
        raise NoPersonFound(
            "The chosen model's face could not be found; choose a model whose face is visible."
        )
    with _CACHE_LOCK:
        _CACHE[key] = person
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return person
