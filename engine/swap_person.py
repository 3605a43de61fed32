"""Model swap, case (a): the photo shows a person wearing the garment.

The person takes the digital model's identity (face, and skin tone on visible skin) while the
garment stays untouched. The model's face, from the jaw line up to where the forehead's skin
stops (the hairline), is warped piecewise-affinely onto the photo's face up to its own jaw and
hairline, so the head keeps the photo's shape; it takes the photo face's local colour and is
blended with a feather that ends at the photo's jaw and hairline. The visible skin (neck, arms,
hands, legs, a bare midriff) is shifted toward the model's skin tone.
Nothing outside the face and the skin mask is written, so garment and hair pixels keep their
values.
The result is then measured (engine/quality.py): a swap that changed too little of the person
to be worth charging for fails with a reason, and the task is refunded.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np
from cv2.typing import MatLike
from scipy.spatial import Delaunay, QhullError

from core.engine import ProgressFn
from core.photos import tone_match
from engine import quality
from engine.arrays import BoolMask, Float32, Floats, Image8, Mask
from engine.digital_model import FACE_OVAL, Person, bare_regions, skin_mask
from engine.head_outline import face_box, head_outline
from engine.quality import QualityReport

# Lightness moves only partly toward the model's: the photo's own lighting still applies.
LIGHTNESS_SHARE = 0.6


def shift_tone(
    rgb: Image8, mask: Mask, delta: Floats, gain: float = 1.0
) -> Image8:
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


# Inner mesh points that pin the features in the piecewise-affine warp: eye corners, brows,
# nose bridge and tip, mouth corners and lips.
ANCHORS = [33, 133, 362, 263, 70, 105, 107, 336, 334, 300, 168, 6, 1, 4, 61, 291, 0, 17, 13, 14]
# Mesh points of the features (brows, eyes, nose, lips): inside their hull the model's pixels
# are always taken, skin or not.
FEATURES = [70, 63, 105, 66, 107, 336, 296, 334, 293, 300, 33, 133, 362, 263, 145, 374,
            1, 4, 48, 278, 61, 291, 0, 17, 13, 14]
# The brows' mesh points, left end to right end through the glabella (9): the line the model's
# face is always taken along, above the brows' middle.
BROW_LINE = [70, 63, 105, 66, 107, 9, 336, 296, 334, 293, 300]
LIPS = [61, 291, 0, 17, 13, 14, 37, 267, 84, 314, 40, 270, 91, 321]
INNER_LIPS = (13, 14)  # the upper and lower lip's inner middle: their gap is the mouth's opening
# The mouth's opening (inner lip gap over the face's height, brow to chin) differs by more than
# this between photo and model: an open smile under closed lips would leave two mouths, so the
# photo keeps its own (recoloured) mouth. On the fixtures closed mouths measure 0-0.021 (the
# models 0.004-0.017), parted lips 0.037-0.056, a laugh with teeth 0.098.
MOUTH_GAP = 0.03
# From the brows' middle up, the model's face fades out over this share of the face's width
# (cheek to cheek): above it the photo keeps its own forehead.
FOREHEAD_RAMP = 0.12


@dataclass(frozen=True)
class FacePatch:
    """The model's face warped onto the photo's face, in a box of the photo."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in photo pixels
    rgb: Image8  # the warped model face, the box's size
    mask: Image8  # uint8 0/255: the photo's face up to jaw and hairline (hard edge)
    alpha: Mask  # float32 0..1: the feathered blend weight, 0 wherever mask is 0


def _piecewise_affine_maps(
    dst: Float32, src: Float32, fallback: Floats, size: tuple[int, int]
) -> tuple[Float32, Float32]:
    """remap() maps sending each Delaunay triangle of `dst` onto its triangle of `src`; outside
    the triangles (and in a triangle the warp would fold) the `fallback` affine (dst -> src)."""
    try:
        triangles = Delaunay(dst).simplices
    except QhullError:  # degenerate points (a face seen edge-on): the similarity alone
        triangles = np.zeros((0, 3), np.int64)
    transforms: list[MatLike] = [np.asarray(fallback, np.float32)]
    label = np.zeros((size[1], size[0]), np.int32)
    for triangle in triangles:
        a, b = dst[triangle], src[triangle]
        area_a = np.cross(a[1] - a[0], a[2] - a[0])
        area_b = np.cross(b[1] - b[0], b[2] - b[0])
        if abs(area_a) < 1.0 or area_a * area_b <= 0:
            continue
        transforms.append(cv2.getAffineTransform(a.astype(np.float32), b.astype(np.float32)))
        cv2.fillConvexPoly(label, np.round(a).astype(np.int32), len(transforms) - 1)
    table = np.stack(transforms).astype(np.float32)
    ys, xs = np.mgrid[0 : size[1], 0 : size[0]].astype(np.float32)
    chosen = table[label]
    map_x = chosen[..., 0, 0] * xs + chosen[..., 0, 1] * ys + chosen[..., 0, 2]
    map_y = chosen[..., 1, 0] * xs + chosen[..., 1, 1] * ys + chosen[..., 1, 2]
    return map_x.astype(np.float32), map_y.astype(np.float32)


def face_patch(photo: Person, model: Person) -> FacePatch | None:
    """Warp the model's face, jaw to hairline, onto the photo's face and head shape.

    A similarity from all mesh points places it; a piecewise-affine warp over the triangles of
    the outlines and the features then makes the model's jaw line and hairline land on the
    photo's, so the head keeps the photo's shape and no oval edge is left inside it."""
    if photo.face is None or model.face is None:
        return None
    matrix, _ = cv2.estimateAffinePartial2D(model.face, photo.face, method=cv2.LMEDS)
    if matrix is None:
        return None
    theirs, ours = head_outline(model), head_outline(photo)
    # Work in a box around the photo's head only: warping the whole frame would cost ten
    # times as much for pixels that are never written.
    x0, y0, x1, y1 = face_box(np.vstack([photo.face, ours]), photo.rgb.shape, 0.12)
    size = (x1 - x0, y1 - y0)
    offset = np.array([x0, y0], np.float32)
    dst = np.vstack([ours, photo.face[ANCHORS]]) - offset
    src = np.vstack([theirs, model.face[ANCHORS]]).astype(np.float32)
    inverse = np.asarray(cv2.invertAffineTransform(np.asarray(matrix, np.float64)), np.float64)
    # The photo box's pixel (x, y) is the photo's (x + x0, y + y0).
    fallback = np.hstack([inverse[:, :2], (inverse[:, 2] + inverse[:, :2] @ offset)[:, None]])
    map_x, map_y = _piecewise_affine_maps(dst, src, fallback, size)
    warped = np.asarray(cv2.remap(
        model.rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    ), np.uint8)
    mask = np.zeros((size[1], size[0]), np.uint8)
    cv2.fillPoly(mask, [np.round(ours - offset).astype(np.int32)], 255)
    # Only the person: a head against the backdrop never takes model pixels outside it.
    mask[photo.subject.cutout.alpha[y0:y1, x0:x1] < 0.5] = 0
    mask[:2] = 0
    mask[-2:] = 0
    mask[:, :2] = 0
    mask[:, -2:] = 0
    if cv2.countNonZero(mask) < 200:
        return None
    # Feathered inside the outline: the weight reaches 0 at the jaw and hairline and is exactly
    # 0 beyond them, so hair and background keep their values.
    face_width = float(np.linalg.norm(photo.face[234] - photo.face[454]))
    feather = max(1.5, FEATHER * face_width)
    reach = int(2 * feather) | 1
    core = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    blurred = cv2.GaussianBlur(core.astype(np.float32) * (1.0 / 255.0), (0, 0), feather)
    alpha = np.where(mask > 0, blurred, 0.0).astype(np.float32)
    alpha *= _model_skin_and_features(photo, model, warped, offset, feather)
    if abs(mouth_gap(photo.face) - mouth_gap(model.face)) > MOUTH_GAP:
        alpha *= 1.0 - _hull(photo.face[LIPS] - offset, alpha.shape, 0.06 * face_width, feather)
    return FacePatch((x0, y0, x1, y1), warped, mask, alpha)


def _hull(points: Floats, shape: tuple[int, ...], grow: float, soften: float) -> Mask:
    """The points' convex hull grown by `grow` pixels, softened (float32 0..1)."""
    hull = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(np.round(points).astype(np.int32)), 1)
    reach = max(3, int(2 * grow) | 1)
    grown = cv2.dilate(hull, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    return np.asarray(cv2.GaussianBlur(grown.astype(np.float32), (0, 0), soften), np.float32)


def _model_skin_and_features(
    photo: Person, model: Person, warped: Image8, offset: Floats, soften: float
) -> Mask:
    """Where the warped model face may be taken (float32 0..1): its skin and its features,
    up to the brows.

    Above the brows the photo keeps its own (recoloured) forehead. A model's fringe, or a
    wisp of one, lies inside the model's hairline points: pasted, it drew dark strands or
    pale streaks over the photo's forehead, and a wisp of thin light hair passes any skin
    test. The forehead carries little of a face's identity; the brows and all below do."""
    assert photo.face is not None
    width = float(np.linalg.norm(photo.face[234] - photo.face[454]))
    features = _hull(photo.face[FEATURES] - offset, warped.shape, 0.04 * width, soften)
    axis = (photo.face[10] - photo.face[152]).astype(np.float32)
    axis /= max(float(np.linalg.norm(axis)), 1.0)
    brows = photo.face[[105, 334]].mean(axis=0) - offset
    ys, xs = np.mgrid[0 : warped.shape[0], 0 : warped.shape[1]].astype(np.float32)
    above = (xs - brows[0]) * axis[0] + (ys - brows[1]) * axis[1]
    below_brows = np.clip(1.0 - above / (FOREHEAD_RAMP * width), 0.0, 1.0)
    # The features always come from the model, but above the brows only the brows themselves
    # (a fringe falls onto the features' hull there).
    brow_lines = np.zeros(warped.shape[:2], np.uint8)
    line = np.round(photo.face[BROW_LINE] - offset).astype(np.int32)
    cv2.polylines(brow_lines, [line], False, 1, max(1, int(0.05 * width)))
    brow_band = cv2.GaussianBlur(brow_lines.astype(np.float32), (0, 0), soften)
    features = np.maximum(features * (above < 0), brow_band)
    keep = below_brows
    if model.tone is not None:
        # A strand of the model's hair across a cheek or a temple (the wisps that frame a face)
        # is not the face: where the warped model is not skin, outside its features, the
        # photo's own (recoloured) pixels stay, in one piece round each strand.
        skin = skin_mask(warped, np.ones(warped.shape[:2], np.float32), model.tone)
        strands = ((skin < 0.5) & (features < 0.5)).astype(np.uint8)
        reach = max(3, int(0.05 * width) | 1)
        hair = cv2.dilate(strands, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
        keep = keep * (1.0 - cv2.GaussianBlur(hair.astype(np.float32), (0, 0), soften))
    return np.clip(np.maximum(keep, features), 0.0, 1.0).astype(np.float32)


def mouth_gap(face: Float32) -> float:
    """The mouth's opening: the inner lips' gap over the face's height (brow to chin)."""
    height = max(float(np.linalg.norm(face[152] - face[10])), 1.0)
    return float(np.linalg.norm(face[INNER_LIPS[0]] - face[INNER_LIPS[1]])) / height


def face_turn(face: Float32) -> float:
    """How far the face is turned: 0 facing the camera, 1 in profile (the nose tip's distances
    to the two cheeks' edges)."""
    left = float(np.linalg.norm(face[1] - face[234]))
    right = float(np.linalg.norm(face[1] - face[454]))
    return abs(left - right) / max(left + right, 1.0)


# The blend's feather, in face widths (cheek to cheek), and the colour match's reach, in widths
# of the blended region: wider reaches left a visible step at the jaw (measured in
# tests/integration/engine/test_face_swap.py), narrower ones keep more of the photo's shading.
FEATHER = 0.04
COLOUR_REACH = 0.08


def blend_face(rgb: Image8, patch: FacePatch) -> Image8:
    """Blend the patch in: the model's features under the (recoloured) photo face's colour.

    The photo's skin, face included, has already been moved toward the model's tone under the
    photo's light. The warped face takes the photo face's local mean colour (a Gaussian mean
    over the face region only, so the correction matches at the border, where the seam would
    be, and stays smooth inside), then a feathered blend whose edge is the photo's jaw and
    hairline. (Poisson cloning was tried: with a large tone difference it left a bright band
    between the mask and the hairline.)
    """
    x0, y0, x1, y1 = patch.box
    box = rgb[y0:y1, x0:x1]
    weight = (patch.mask > 0).astype(np.float32)
    sigma = max(2.0, COLOUR_REACH * cv2.boundingRect(patch.mask)[2])
    spread = cv2.GaussianBlur(weight, (0, 0), sigma) + 1e-4
    ours = cv2.cvtColor(box, cv2.COLOR_RGB2LAB).astype(np.float32)
    theirs = cv2.cvtColor(patch.rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    local = cv2.GaussianBlur(ours * weight[..., None], (0, 0), sigma) / spread[..., None]
    local -= cv2.GaussianBlur(theirs * weight[..., None], (0, 0), sigma) / spread[..., None]
    face = cv2.cvtColor(np.clip(theirs + local, 0, 255).astype(np.uint8), cv2.COLOR_LAB2RGB)
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.blendLinear(face, box, patch.alpha, 1.0 - patch.alpha)
    return out


def recolour_skin(photo: Person, model: Person) -> Image8:
    """The photo with its visible skin, face included, moved toward the model's skin tone."""
    assert model.tone is not None
    if photo.tone is not None:
        photo_tone: Float32 | None = photo.tone
    else:
        # No face in frame (cropped at the chin): the skin's own median colour stands in.
        visible = photo.skin > 0.5
        photo_tone = (
            np.median(cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2LAB)[visible].astype(np.float32), 0)
            if visible.any()
            else None
        )
    if photo_tone is None:
        return photo.rgb
    # Lightness moves only partly: the photo's own lighting still applies.
    gain = float(np.clip(
        (max(model.tone[0], 1.0) / max(photo_tone[0], 1.0)) ** LIGHTNESS_SHARE, 0.5, 2.0))
    # The colour moves by the same share of the way as the lightness did. Real skin tones lie
    # on one curve, darker skin with more colour: a dark photo lightened only part of the way
    # but given a light model's full (lower) colour came out grey, ashen.
    span = float(model.tone[0] - photo_tone[0])
    share = 1.0 if abs(span) < 4.0 else float(np.clip(photo_tone[0] * (gain - 1.0) / span, 0, 1))
    delta = (model.tone - photo_tone).astype(np.float32) * share
    delta[0] = 0.0
    # The face too: the model's face is then matched to this recoloured face.
    body_skin = np.asarray(cv2.GaussianBlur(photo.skin, (0, 0), 1.5), np.float32)
    return shift_tone(photo.rgb, body_skin, delta, gain)


def tone_gap(photo: Person, model: Person) -> float | None:
    """CIE ΔE76 between the photo's and the model's skin tones (OpenCV Lab, L rescaled to
    0-100); None when the photo has no tone to go by."""
    if photo.tone is None or model.tone is None:
        return None
    return tone_match.tone_gap(
        tone_match.lab_from_opencv(photo.tone), tone_match.lab_from_opencv(model.tone))


def identity_swap(photo: Person, model: Person, progress: ProgressFn) -> Image8:
    """Case (a): the photo's person takes the model's face and skin tone."""
    assert model.tone is not None
    # Refused before any work: a turned face takes the model's frontal one as a band, and a
    # tone carried too far comes out in patches.
    early = quality.QualityReport(
        "identity_swap",
        face_turn=None if photo.face is None else face_turn(photo.face),
        tone_gap=tone_gap(photo, model),
    )
    if quality.judge(early).failures:
        quality.enforce(early)
    progress(0.45, "matching faces")
    patch = face_patch(photo, model)
    progress(0.6, "matching skin tone")
    out = recolour_skin(photo, model)
    if patch is not None:
        out = blend_face(out, patch)
    progress(0.75, "checking the result")
    check_identity_swap(photo, out, face_swapped=patch is not None)
    return out


def tone_regions(photo: Person) -> tuple[BoolMask, BoolMask] | None:
    """Where the skin consistency is measured (bool masks): the face's skin, well inside the
    face outline, and the skin of the neck, neckline, arms and hands, well outside it.

    Skin here is the classic YCrCb skin ranges or the engine's own skin mask: the check must
    see arms that the engine's mask missed (and so did not recolour), which is the failure it
    exists for. None without a face."""
    if photo.face is None:
        return None
    h, w = photo.rgb.shape[:2]
    ycrcb = cv2.cvtColor(photo.rgb, cv2.COLOR_RGB2YCrCb)
    generic = cv2.inRange(ycrcb, (20, 133, 77), (255, 180, 135)) > 0
    skin = (generic | (photo.skin > 0.5)) & (photo.subject.cutout.alpha > 0.5)
    oval = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(oval, cv2.convexHull(photo.face[FACE_OVAL].astype(np.int32)), 1)
    width = float(np.linalg.norm(photo.face[234] - photo.face[454]))
    inner = cv2.erode(oval, np.ones((max(3, int(width / 8)),) * 2, np.uint8)) > 0
    outer = cv2.dilate(oval, np.ones((max(3, int(width / 6)),) * 2, np.uint8)) > 0
    body = (bare_regions(photo.rgb.shape, photo.pose, photo.face) > 0) & ~outer
    return skin & inner, skin & body


def identity_report(photo: Person, out: Image8, face_swapped: bool) -> QualityReport:
    """The swap's self-check scores: how much of the person changed and by how much at most,
    whether face and body still share one skin tone, and the photo's matte."""
    alpha = photo.subject.cutout.alpha
    person = alpha > 0.5
    changed, skin_shift = quality.change_measure(photo.rgb, out, person, photo.skin > 0.5)
    regions = tone_regions(photo)
    mismatch = None if regions is None else quality.skin_mismatch(photo.rgb, out, *regions)
    matte = quality.cutout_report(photo.rgb, alpha, photo.subject.backdrop, "identity_swap")
    return dataclasses.replace(
        matte,
        changed_share=changed,
        skin_shift=skin_shift,
        peak_change=quality.peak_change(photo.rgb, out, person),
        skin_mismatch=mismatch,
        face_swapped=face_swapped,
        face_turn=None if photo.face is None else face_turn(photo.face),
    )


def check_identity_swap(photo: Person, out: Image8, face_swapped: bool) -> QualityReport:
    """Score the swap; QualityTooLow (refunded) when the person did not change enough to charge
    for, e.g. a face cropped by the frame and a model of much the same skin tone."""
    return quality.enforce(identity_report(photo, out, face_swapped))
