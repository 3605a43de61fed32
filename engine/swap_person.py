"""Model swap, case (a): the photo shows a person wearing the garment.

The person takes the digital model's identity (face, and skin tone on visible skin) while the
garment stays untouched. Face mesh points on both faces give a similarity transform; the
model's face is warped onto the photo's face, lit like the photo, and blended inside the photo's
face outline; the visible skin (neck, arms, hands, legs, a bare midriff) is shifted toward the
model's skin tone.
Nothing outside the face and the skin mask is written, so garment pixels keep their values.
The result is then measured (engine/quality.py): a swap that changed too little of the person
to be worth charging for fails with a reason, and the task is refunded.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import ProgressFn
from engine import quality
from engine.digital_model import FACE_OVAL, Person
from engine.quality import QualityReport

# Lightness moves only partly toward the model's: the photo's own lighting still applies.
LIGHTNESS_SHARE = 0.6


def shift_tone(
    rgb: np.ndarray, mask: np.ndarray, delta: np.ndarray, gain: float = 1.0
) -> np.ndarray:
    """Recolour inside a soft mask: lightness times `gain`, then a Lab offset `delta`.

    Lightness is scaled rather than shifted so that the shading (darker under the arm, a
    highlight on the shoulder) keeps its contrast. Pixels where the mask is 0 keep their exact
    values, which is what keeps garment pixels untouched.
    """
    ys, xs = np.nonzero(mask > 0.01)
    if len(ys) == 0:
        return rgb
    region = rgb[ys, xs].reshape(-1, 1, 3)
    lab = cv2.cvtColor(region, cv2.COLOR_RGB2LAB).astype(np.float32)
    weight = mask[ys, xs].reshape(-1, 1)
    target = lab.copy()
    target[:, :, 0] *= gain
    target += delta
    lab = np.clip(lab + (target - lab) * weight[:, :, None], 0, 255).astype(np.uint8)
    out = rgb.copy()
    out[ys, xs] = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB).reshape(-1, 3)
    return out


def _face_box(
    points: np.ndarray, shape: tuple[int, ...], margin: float
) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    pad = margin * max(x1 - x0, y1 - y0)
    return (
        max(0, int(x0 - pad)),
        max(0, int(y0 - pad)),
        min(w, int(np.ceil(x1 + pad))),
        min(h, int(np.ceil(y1 + pad))),
    )


@dataclass(frozen=True)
class FacePatch:
    """The model's face warped onto the photo's face, in a box of the photo."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in photo pixels
    rgb: np.ndarray  # the warped model face, the box's size
    mask: np.ndarray  # uint8 0/255: where it replaces the photo


def face_patch(photo: Person, model: Person) -> FacePatch | None:
    """Warp the model's face onto the photo's face (similarity from all mesh points)."""
    if photo.face is None or model.face is None:
        return None
    matrix, _ = cv2.estimateAffinePartial2D(model.face, photo.face, method=cv2.LMEDS)
    if matrix is None:
        return None
    # Work in a box around the photo's face only: warping the whole frame would cost ten
    # times as much for pixels that are never written.
    x0, y0, x1, y1 = _face_box(photo.face, photo.rgb.shape, 0.25)
    shifted = np.asarray(matrix, np.float64).copy()
    shifted[:, 2] -= np.array([x0, y0], np.float64)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(
        model.rgb, shifted, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    # Inside both face outlines: the photo's (where a face belongs) and the warped model's (so
    # a turned head never pulls in the model photo's background or hair).
    local: np.ndarray = photo.face - np.array([x0, y0], np.float32)
    moved = cv2.transform(model.face[None], shifted)[0]
    mask = np.zeros((size[1], size[0]), np.uint8)
    theirs = np.zeros_like(mask)
    cv2.fillConvexPoly(mask, cv2.convexHull(local[FACE_OVAL].astype(np.int32)), 255)
    cv2.fillConvexPoly(theirs, cv2.convexHull(moved[FACE_OVAL].astype(np.int32)), 255)
    face_width = float(np.linalg.norm(photo.face[234] - photo.face[454]))
    shrink = max(3, int(face_width * 0.04)) | 1
    mask = np.asarray(cv2.erode(cv2.min(mask, theirs), np.ones((shrink, shrink), np.uint8)))
    # The feathered blend must fade out inside the box.
    mask[:2] = 0
    mask[-2:] = 0
    mask[:, :2] = 0
    mask[:, -2:] = 0
    if cv2.countNonZero(mask) < 200:
        return None
    return FacePatch((x0, y0, x1, y1), warped, mask)


def blend_face(rgb: np.ndarray, patch: FacePatch) -> np.ndarray:
    """Blend the patch in: the model's features at the colour of the (recoloured) photo face.

    The photo's skin, face included, has already been moved toward the model's tone under the
    photo's light; the warped face gets that region's mean Lab colour, then a feathered blend.
    (Poisson cloning was tried: with a large tone difference it left a bright band between
    the mask and the hairline.)
    """
    x0, y0, x1, y1 = patch.box
    box = rgb[y0:y1, x0:x1]
    inside = patch.mask > 0
    target = cv2.cvtColor(box, cv2.COLOR_RGB2LAB)[inside].astype(np.float32).mean(axis=0)
    lab = cv2.cvtColor(patch.rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab += target - lab[inside].mean(axis=0)
    face = cv2.cvtColor(np.clip(lab, 0, 255).astype(np.uint8), cv2.COLOR_LAB2RGB)
    feather = max(1.0, 0.02 * (x1 - x0))
    alpha = cv2.GaussianBlur(patch.mask.astype(np.float32) * (1.0 / 255.0), (0, 0), feather)
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.blendLinear(face, box, alpha, 1.0 - alpha)
    return out


def identity_swap(photo: Person, model: Person, progress: ProgressFn) -> np.ndarray:
    """Case (a): the photo's person takes the model's face and skin tone."""
    assert model.tone is not None
    progress(0.45, "matching faces")
    patch = face_patch(photo, model)
    h, w = photo.rgb.shape[:2]
    face_alpha = np.zeros((h, w), np.float32)
    if patch is not None:
        x0, y0, x1, y1 = patch.box
        face_alpha[y0:y1, x0:x1] = patch.mask * (1.0 / 255.0)
    progress(0.6, "matching skin tone")
    out = photo.rgb
    if photo.tone is not None:
        photo_tone: np.ndarray | None = photo.tone
    else:
        # No face in frame (cropped at the chin): the skin's own median colour stands in.
        visible = photo.skin > 0.5
        photo_tone = (
            np.median(cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2LAB)[visible].astype(np.float32), 0)
            if visible.any()
            else None
        )
    if photo_tone is not None:
        delta = (model.tone - photo_tone).astype(np.float32)
        delta[0] = 0.0
        # Lightness moves only partly: the photo's own lighting still applies.
        gain = float((max(model.tone[0], 1.0) / max(photo_tone[0], 1.0)) ** LIGHTNESS_SHARE)
        # The face too: the model's face is then matched to this recoloured face.
        body_skin = cv2.GaussianBlur(photo.skin, (0, 0), 1.5)
        out = shift_tone(out, body_skin, delta, float(np.clip(gain, 0.5, 2.0)))
    if patch is not None:
        out = blend_face(out, patch)
    progress(0.75, "checking the result")
    check_identity_swap(photo, out, face_swapped=patch is not None)
    return out


def identity_report(photo: Person, out: np.ndarray, face_swapped: bool) -> QualityReport:
    """The swap's self-check scores: how much of the person changed, and the photo's matte."""
    alpha = photo.subject.cutout.alpha
    changed, skin_shift = quality.change_measure(
        photo.rgb, out, alpha > 0.5, photo.skin > 0.5
    )
    matte = quality.cutout_report(photo.rgb, alpha, photo.subject.backdrop, "identity_swap")
    return dataclasses.replace(
        matte,
        changed_share=changed,
        skin_shift=skin_shift,
        face_swapped=face_swapped,
    )


def check_identity_swap(photo: Person, out: np.ndarray, face_swapped: bool) -> QualityReport:
    """Score the swap; QualityTooLow (refunded) when the person did not change enough to charge
    for, e.g. a face cropped by the frame and a model of much the same skin tone."""
    return quality.enforce(identity_report(photo, out, face_swapped))
