"""The person's side of the output gate: the digital model is still themselves (face, skin) and
their body is still in proportion (numpy, OpenCV and the mediapipe pose the analysis uses).

The paste-back keeps every pixel outside the try-on region exact, so what is measured is what
the model may change: the face's box (the region stops at the face oval, but the box takes in
the chin's and neck's edge), the exposed skin inside the region (neck, arms, legs the garment
leaves bare), and the limbs the garment covers (their length from pose keypoints).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import models
from engine.analysis import work_copy
from engine.arrays import BoolMask, Float32, Float64, Image8
from engine.diffusion.fidelity.colour import delta_e2000, lab_pixels

FACE_MARGIN = 0.15  # the face box grows by this share of its size on each side
FACE_SIDE = 96  # the face box is compared at this size
MIN_SKIN_PIXELS = 400  # fewer exposed skin pixels left in the region: not measured
# A keypoint counts when the pose model sees it at least this surely (knees and ankles cut by
# the frame, or hidden, score lower and move by a tenth of a limb between near-identical photos).
VISIBLE = 0.8
# Body segments whose lengths are compared (in pixels: the try-on keeps the camera and the
# pose, so each length should stay): shoulder and hip widths, the torso (the shoulders'
# midpoint to the hips'), upper arms, forearms, thighs and shins.
SEGMENTS = (
    ("shoulders", (models.LEFT_SHOULDER,), (models.RIGHT_SHOULDER,)),
    ("hips", (models.LEFT_HIP,), (models.RIGHT_HIP,)),
    ("torso", (models.LEFT_SHOULDER, models.RIGHT_SHOULDER), (models.LEFT_HIP, models.RIGHT_HIP)),
    ("left upper arm", (models.LEFT_SHOULDER,), (models.LEFT_ELBOW,)),
    ("right upper arm", (models.RIGHT_SHOULDER,), (models.RIGHT_ELBOW,)),
    ("left forearm", (models.LEFT_ELBOW,), (models.LEFT_WRIST,)),
    ("right forearm", (models.RIGHT_ELBOW,), (models.RIGHT_WRIST,)),
    ("left thigh", (models.LEFT_HIP,), (25,)),
    ("right thigh", (models.RIGHT_HIP,), (26,)),
    ("left shin", (25,), (models.LEFT_ANKLE,)),
    ("right shin", (26,), (models.RIGHT_ANKLE,)),
)


def face_box(face: Float32, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the face mesh's points, grown by FACE_MARGIN, inside the photo."""
    x0, y0 = face.min(axis=0)
    x1, y1 = face.max(axis=0)
    mx, my = FACE_MARGIN * (x1 - x0), FACE_MARGIN * (y1 - y0)
    h, w = shape[:2]
    return (max(0, int(x0 - mx)), max(0, int(y0 - my)), min(w, int(x1 + mx) + 1),
            min(h, int(y1 + my) + 1))


def ssim(a: Image8, b: Image8) -> float:
    """The structural similarity (Wang et al. 2004: Gaussian window, sigma 1.5) of two equal
    grey images, their mean over the image."""
    x, y = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2

    def blur(v: Float64) -> Float64:
        return np.asarray(cv2.GaussianBlur(v, (11, 11), 1.5), np.float64)

    mx, my = blur(x), blur(y)
    vx, vy, cxy = blur(x * x) - mx * mx, blur(y * y) - my * my, blur(x * y) - mx * my
    index = ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
    return float(index.mean())


def face_similarity(output: Image8, person: Image8, face: Float32 | None) -> float | None:
    """SSIM of the face box in the output against the model photo's (None without a face)."""
    if face is None:
        return None
    x0, y0, x1, y1 = face_box(face, person.shape)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None

    def grey(rgb: Image8) -> Image8:
        box = cv2.cvtColor(np.ascontiguousarray(rgb[y0:y1, x0:x1]), cv2.COLOR_RGB2GRAY)
        return np.asarray(cv2.resize(box, (FACE_SIDE, FACE_SIDE), interpolation=cv2.INTER_AREA))

    return ssim(grey(output), grey(person))


def skin_difference(output: Image8, person: Image8, band: BoolMask,
                    garment_colours: Float32) -> float | None:
    """CIEDE2000 between the exposed skin in `band` (the model's skin inside the try-on region)
    as it was and as it came out. An output pixel counts as skin when it is nearer the skin's
    colour than any of the garment's colours (the garment may now cover part of the band: a
    sleeve on a bare arm). None when too little skin is left to measure."""
    if int(band.sum()) < MIN_SKIN_PIXELS:
        return None
    before = np.median(lab_pixels(person, band), axis=0)
    after = lab_pixels(output, band)
    to_skin = np.linalg.norm(after - before, axis=1)
    to_garment = (np.linalg.norm(after[:, None] - garment_colours[None], axis=2).min(axis=1)
                  if len(garment_colours) else np.full(len(after), np.inf))
    skin = after[to_skin < to_garment]
    if len(skin) < MIN_SKIN_PIXELS:
        return None
    return float(delta_e2000(np.median(skin, axis=0), before))


def body_pose(rgb: Image8) -> models.Pose | None:
    """The pose keypoints of `rgb` in its own pixels, found as the analysis finds them (the
    pose model on the working copy)."""
    small, scale = work_copy(rgb)
    found = models.pose(small)
    if found is None:
        return None
    return models.Pose(found.points / scale, found.visibility, found.mask)


def _lengths(pose: models.Pose, shape: tuple[int, ...]) -> dict[str, float]:
    """Each surely seen segment's length in pixels (both ends inside the photo)."""
    p, seen = pose.points, pose.visibility
    h, w = shape[:2]
    inside = (p[:, 0] >= 0) & (p[:, 0] < w) & (p[:, 1] >= 0) & (p[:, 1] < h)
    lengths = {}
    for name, start, end in SEGMENTS:
        ends = list(start + end)
        if seen[ends].min() < VISIBLE or not inside[ends].all():
            continue
        a, b = p[list(start)].mean(axis=0), p[list(end)].mean(axis=0)
        lengths[name] = float(np.linalg.norm(a - b))
    return lengths


def proportion_change(output: models.Pose | None, person: models.Pose,
                      shape: tuple[int, ...]) -> tuple[float, str]:
    """The largest relative change of a body segment's length from the model photo to the
    output (both `shape`), and that segment's name; inf when the output has no body (or not
    one segment seen surely in both)."""
    if output is None:
        return float("inf"), "body"
    before, after = _lengths(person, shape), _lengths(output, shape)
    shared = [name for name in before if name in after and before[name] > 4.0]
    if not shared:
        return float("inf"), "body"
    changes = {name: abs(after[name] / before[name] - 1.0) for name in shared}
    worst = max(changes, key=lambda name: changes[name])
    return changes[worst], worst


def outline_agreement(output: models.Pose | None, person: models.Pose) -> float:
    """The intersection over union of the body's outline (the pose model's own segmentation,
    at its working size) in the output and in the model photo, 0..1; 0 without a body.

    The pose model's keypoints follow its prior of a human body: a body stretched to twice its
    upper arms' length reads as 8-44 % longer segments. Its segmentation follows the pixels, so
    the outline tells a stretched or shrunk body from a garment changed on the same one."""
    if output is None:
        return 0.0
    before, after = person.mask > 0.5, output.mask > 0.5
    if before.shape != after.shape:
        after = cv2.resize(after.astype(np.uint8), before.shape[::-1],
                           interpolation=cv2.INTER_NEAREST) > 0
    union = int(np.count_nonzero(before | after))
    return float(np.count_nonzero(before & after)) / union if union else 0.0


__all__ = ["body_pose", "face_similarity", "outline_agreement", "proportion_change",
           "skin_difference", "ssim"]
