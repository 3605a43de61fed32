"""Model swap (bodySwap), in two cases.

(a) The photo shows a person wearing the garment: the person takes the digital model's identity
    (face, and skin tone on visible skin) while garment pixels stay untouched. Face landmarks on
    both faces give a similarity transform; the model's face is warped onto the photo, lit like
    the photo, and blended inside the photo's face outline; visible skin (neck, arms, legs) is
    shifted to the model's skin tone. Nothing outside face and skin is written.
(b) The photo is a garment alone: the digital model is dressed in it. The garment's shoulder
    line and hem are found from its matte, mapped onto the model's shoulders from the pose
    landmarks, shaded with the model photo's lighting, and the model's hands and hair stay in
    front.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from core.engine import NoGarmentFound, NoPersonFound, ProgressFn
from engine import models
from engine.analysis import Subject, detect_person, find_subject, work_copy

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


def skin_mask(
    rgb: np.ndarray, person: np.ndarray, reference: np.ndarray | None = None
) -> np.ndarray:
    """Likely skin inside the person.

    With a reference tone (Lab, from the person's own cheeks) skin is what is close to it, which
    works for every skin tone; without one, the classic YCrCb ranges.
    """
    if reference is not None:
        lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
        diff = lab - reference
        distance = np.sqrt(0.25 * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2)
        skin = distance < 14.0
    else:
        ycrcb = cv2.cvtColor(rgb, cv2.COLOR_RGB2YCrCb)
        skin = cv2.inRange(ycrcb, (20, 133, 77), (255, 180, 135)) > 0
    skin &= person > 0.5
    skin_u8 = cv2.morphologyEx(skin.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return skin_u8.astype(np.float32)


def face_points(rgb: np.ndarray) -> np.ndarray | None:
    small, scale = work_copy(rgb)
    points = models.face_landmarks(small)
    return None if points is None else points / scale


def tone(rgb: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Mean Lab colour of the cheeks."""
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    h, w = rgb.shape[:2]
    samples = []
    radius = max(2, int(np.linalg.norm(points[234] - points[454]) * 0.04))
    for index in CHEEKS:
        x, y = np.clip(points[index], [radius, radius], [w - radius - 1, h - radius - 1]).astype(
            int
        )
        samples.append(lab[y - radius : y + radius + 1, x - radius : x + radius + 1].reshape(-1, 3))
    return np.median(np.concatenate(samples), axis=0)


@lru_cache(maxsize=16)
def _model_analysis(key: bytes, shape: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Face landmarks and skin tone of a digital model, cached: the catalog is reused a lot."""
    rgb = np.frombuffer(_MODEL_PIXELS[key], np.uint8).reshape(shape)
    points = face_points(rgb)
    if points is None:
        raise NoPersonFound("The chosen model's face could not be found; pick another model.")
    return points, tone(rgb, points)


_MODEL_PIXELS: dict[bytes, bytes] = {}


def model_face(model_rgb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    import hashlib

    data = model_rgb.tobytes()
    key = hashlib.sha1(data).digest()
    _MODEL_PIXELS[key] = data
    try:
        return _model_analysis(key, model_rgb.shape)
    finally:
        _MODEL_PIXELS.pop(key, None)


def shift_tone(rgb: np.ndarray, mask: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Add a Lab offset inside a soft mask; pixels where the mask is 0 are untouched."""
    ys, xs = np.nonzero(mask > 0.01)
    if len(ys) == 0:
        return rgb
    region = rgb[ys, xs].reshape(-1, 1, 3)
    lab = cv2.cvtColor(region, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab = np.clip(lab + delta * mask[ys, xs].reshape(-1, 1, 1), 0, 255).astype(np.uint8)
    out = rgb.copy()
    out[ys, xs] = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB).reshape(-1, 3)
    return out


def identity_swap(
    rgb: np.ndarray, subject: Subject, model_rgb: np.ndarray, progress: ProgressFn
) -> np.ndarray:
    """Case (a): the photo's person takes the model's face and skin tone."""
    model_points, model_tone = model_face(model_rgb)
    progress(0.4, "matching faces")
    h, w = rgb.shape[:2]
    person = subject.cutout.alpha
    photo_points = face_points(rgb)
    skin = skin_mask(rgb, person, tone(rgb, photo_points) if photo_points is not None else None)
    out = rgb
    face_alpha: np.ndarray = np.zeros((h, w), np.float32)
    if photo_points is not None:
        photo_tone = tone(rgb, photo_points)
        matrix, _ = cv2.estimateAffinePartial2D(model_points, photo_points, method=cv2.LMEDS)
        if matrix is not None:
            warped = cv2.warpAffine(
                model_rgb, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
            )
            # Light the model's face like the photo: match lightness, keep the model's colour.
            warped_tone = tone(warped, photo_points)
            warped = shift_tone(
                warped,
                np.ones((h, w), np.float32),
                np.array([photo_tone[0] - warped_tone[0], 0, 0], np.float32),
            )
            hull = cv2.convexHull(photo_points[FACE_OVAL].astype(np.int32))
            cv2.fillConvexPoly(face_alpha, hull, 1.0)
            face_width = float(np.linalg.norm(photo_points[234] - photo_points[454]))
            shrink = max(3, int(face_width * 0.06)) | 1
            face_alpha = cv2.erode(face_alpha, np.ones((shrink, shrink), np.uint8))
            face_alpha = cv2.GaussianBlur(face_alpha, (0, 0), face_width * 0.05)
            out = cv2.blendLinear(warped, rgb, face_alpha, 1.0 - face_alpha)
        delta = model_tone - photo_tone
    else:
        # No face in frame (cropped at the neck): only the skin tone changes.
        visible = skin > 0
        photo_tone = (
            cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[visible].astype(np.float32).mean(0)
            if visible.any()
            else model_tone
        )
        delta = model_tone - photo_tone
    progress(0.6, "matching skin tone")
    # Bounded: a large jump in tone on a photo lit for another skin looks painted on; the face
    # already carries the model's identity, the body follows it part of the way.
    delta = np.clip(delta * np.array([0.5, 1.0, 1.0]), [-14, -10, -10], [14, 10, 10])
    # A continuous mask: closing joins the detected patches, the blur avoids blotches.
    joined = cv2.morphologyEx(skin, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    body_skin = cv2.GaussianBlur(joined, (0, 0), 3.0) * (person > 0.5) * (1.0 - face_alpha)
    return shift_tone(out, body_skin.astype(np.float32), delta.astype(np.float32))


def garment_keypoints(alpha: np.ndarray) -> dict[str, np.ndarray]:
    """Neckline, shoulders, sleeve ends and hem of a garment from its matte."""
    mask = alpha > 0.5
    rows = np.nonzero(mask.any(axis=1))[0]
    top, bottom = int(rows[0]), int(rows[-1])
    height = bottom - top + 1

    def span(y: int) -> tuple[int, int]:
        xs = np.nonzero(mask[y])[0]
        return int(xs[0]), int(xs[-1])

    band = top + max(1, int(height * 0.08))
    left, right = span(band)
    chest = top + max(1, int(height * 0.3))
    chest_left, chest_right = span(chest)
    hem_y = bottom - max(1, int(height * 0.03))
    hem_left, hem_right = span(hem_y)
    cols = np.nonzero(mask.any(axis=0))[0]
    return {
        "neckline": np.array([(left + right) / 2, top], np.float32),
        "left_shoulder": np.array([left, band], np.float32),
        "right_shoulder": np.array([right, band], np.float32),
        "left_sleeve": np.array([cols[0], np.nonzero(mask[:, cols[0]])[0].mean()], np.float32),
        "right_sleeve": np.array([cols[-1], np.nonzero(mask[:, cols[-1]])[0].mean()], np.float32),
        "chest_left": np.array([chest_left, chest], np.float32),
        "chest_right": np.array([chest_right, chest], np.float32),
        "hem_left": np.array([hem_left, hem_y], np.float32),
        "hem_right": np.array([hem_right, hem_y], np.float32),
    }


def dress_model(
    garment_rgb: np.ndarray, subject: Subject, model_rgb: np.ndarray, progress: ProgressFn
) -> np.ndarray:
    """Case (b): put the garment on the digital model."""
    small, scale = work_copy(model_rgb)
    pose = detect_person(small, scale)
    if pose is None:
        raise NoPersonFound("The chosen model's body could not be found; pick another model.")
    alpha = subject.cutout.alpha
    if float((alpha > 0.5).mean()) < 0.03:
        raise NoGarmentFound("No garment could be separated from the background of the photo.")
    progress(0.4, "fitting the garment")
    keys = garment_keypoints(alpha)
    # The model image is the canvas; the analysis is computed anew since it may be resized.
    model_subject = find_subject(model_rgb, want="person")
    h, w = model_rgb.shape[:2]
    ls = pose.points[models.RIGHT_SHOULDER]  # the model's right is the image's left
    rs = pose.points[models.LEFT_SHOULDER]
    shoulder_width = float(np.linalg.norm(rs - ls))
    # Seams sit a little outside and above the shoulder joints.
    outward = (rs - ls) / max(shoulder_width, 1.0)
    up = np.array([outward[1], -outward[0]], np.float32)
    if up[1] > 0:
        up = -up
    target_left = ls - outward * shoulder_width * 0.16 + up * shoulder_width * 0.06
    target_right = rs + outward * shoulder_width * 0.16 + up * shoulder_width * 0.06
    top_width = keys["right_shoulder"][0] - keys["left_shoulder"][0]
    chest_width = keys["chest_right"][0] - keys["chest_left"][0]
    if top_width >= 0.6 * chest_width:
        source = np.array([keys["left_shoulder"], keys["right_shoulder"]], np.float32)
        target = np.array([target_left, target_right], np.float32)
    else:
        # Straps or a halter neck: the top is narrow, so fit the chest to the model's chest.
        down = -up * shoulder_width * 0.5
        source = np.array([keys["chest_left"], keys["chest_right"]], np.float32)
        target = np.array(
            [
                ls + down - outward * shoulder_width * 0.02,
                rs + down + outward * shoulder_width * 0.02,
            ],
            np.float32,
        )
    matrix, _ = cv2.estimateAffinePartial2D(source, target)
    if matrix is None:
        raise NoGarmentFound("The garment's shape could not be read; try a flat, front-on photo.")
    garment = cv2.warpAffine(
        subject.cutout.rgb, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    garment_alpha = cv2.warpAffine(alpha, matrix, (w, h), flags=cv2.INTER_LINEAR)
    progress(0.6, "shading")
    # Shade with the model photo's lighting: its smooth lightness relative to its mean.
    light = cv2.GaussianBlur(
        cv2.cvtColor(model_rgb, cv2.COLOR_RGB2GRAY).astype(np.float32), (0, 0), max(4.0, w / 60)
    )
    inside = garment_alpha > 0.5
    if inside.any():
        ratio = np.clip(light / max(float(light[inside].mean()), 1.0), 0.75, 1.2) ** 0.6
        garment = np.clip(garment.astype(np.float32) * ratio[..., None], 0, 255).astype(np.uint8)
    # Keep the model's hands and hair in front of the garment.
    front = skin_mask(model_rgb, model_subject.cutout.alpha)
    below_elbows = np.zeros((h, w), np.float32)
    elbow_y = float(min(pose.points[models.LEFT_ELBOW, 1], pose.points[models.RIGHT_ELBOW, 1]))
    below_elbows[int(max(0, elbow_y)) :] = 1.0
    hands = front * below_elbows
    neck_y = float(min(ls[1], rs[1]))
    hair = np.zeros((h, w), np.float32)
    grey = cv2.cvtColor(model_rgb, cv2.COLOR_RGB2GRAY)
    hair_zone = (grey < 90) & (model_subject.cutout.alpha > 0.5) & (front == 0)
    hair[: int(max(0, neck_y + shoulder_width * 0.15))] = 1.0
    hair *= hair_zone
    keep = cv2.GaussianBlur(np.maximum(hands, hair), (0, 0), 1.5)
    visible = garment_alpha * (1.0 - keep)
    return cv2.blendLinear(
        garment, model_rgb, visible.astype(np.float32), (1.0 - visible).astype(np.float32)
    )
