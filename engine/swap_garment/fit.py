"""Step 2 of dressing a model: the transforms from garment pixels to the model's body.

An affine fit of the torso from the shoulder line, the smooth fit (a thin-plate spline through
seams, armpits, hem and collar), each sleeve turned about its shoulder onto the model's arm,
and a bottom's waistband put on the waist.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import NoGarmentFound
from engine import models
from engine.arrays import Float64, Floats, Mask
from engine.digital_model import Person
from engine.swap_garment.body import body_axes
from engine.swap_garment.shape import GarmentShape, NeckOpening, Sleeve

# Where the garment's shoulder seams land, as a multiple of the distance between the pose's
# shoulder joints (seams sit just outside the joints), and how much a flat lay narrows when it
# wraps around a body (front view).
SEAM_WIDTH = 1.12
WRAP = 0.92
# Garments without sleeves (camis, bandeaus) are fitted by their chest to the model's chest.
CHEST_WIDTH = 1.05


def _rotation_about(point: Floats, angle: float) -> Float64:
    """3x3 rotation by `angle` radians about `point`."""
    c, s = np.cos(angle), np.sin(angle)
    x, y = float(point[0]), float(point[1])
    return np.array([[c, -s, x - c * x + s * y], [s, c, y - s * x - c * y], [0, 0, 1]], np.float64)


def _angle(vector: Floats) -> float:
    return float(np.arctan2(vector[1], vector[0]))


def torso_transform(shape: GarmentShape, model: Person) -> Floats:
    """3x3 affine from garment pixels to model pixels for the garment's body."""
    points = model.pose.points
    # The model's right shoulder is on the image's left.
    joint_l, joint_r = points[models.RIGHT_SHOULDER], points[models.LEFT_SHOULDER]
    hip_l, hip_r = points[models.RIGHT_HIP], points[models.LEFT_HIP]
    joints = float(np.linalg.norm(joint_r - joint_l))
    across = (joint_r - joint_l) / max(joints, 1.0)
    # "Down" follows the body's axis (shoulders' middle to hips' middle), not the image's.
    axis = (hip_l + hip_r) / 2 - (joint_l + joint_r) / 2
    down = axis / max(float(np.linalg.norm(axis)), 1.0)
    seam = float(np.linalg.norm(shape.right_shoulder - shape.left_shoulder))
    if shape.sleeves is not None or seam >= 0.6 * shape.chest_width:
        scale = SEAM_WIDTH * joints / max(seam, 1.0)
        anchor_g = (shape.left_shoulder + shape.right_shoulder) / 2
        # Seams sit slightly above the joints.
        anchor_m = (joint_l + joint_r) / 2 - down * joints * 0.12
    else:
        scale = CHEST_WIDTH * joints / max(shape.chest_width * WRAP, 1.0)
        anchor_g = np.array(
            [(shape.left_shoulder[0] + shape.right_shoulder[0]) / 2, shape.chest_y], np.float32
        )
        torso = float(np.linalg.norm(axis))
        anchor_m = (joint_l + joint_r) / 2 + down * torso * 0.3
    # Columns: garment x and y axes in model pixels. x narrows by WRAP (the flat lay wraps
    # around the body); y keeps the garment's length at the same scale.
    x_axis = across * scale * WRAP
    y_axis = down * scale
    linear = np.stack([x_axis, y_axis], axis=1).astype(np.float64)
    offset = anchor_m - linear @ anchor_g
    return np.array(
        [
            [linear[0, 0], linear[0, 1], offset[0]],
            [linear[1, 0], linear[1, 1], offset[1]],
            [0, 0, 1],
        ],
        np.float64,
    )


# The smooth fit (thin-plate spline, OpenCV's): garment key points to body landmarks. Each
# shoulder seam sits just outside and above its own joint (so a tilted or uneven pair of
# shoulders is followed, not averaged), each armpit follows its own shoulder, and the hem
# narrows toward the hips where a flat lay is wider than the body (the fabric falls, it does not
# stand out as a box). The spline is regularised a little: bends stay gentle.
SEAM_OUT = 0.5 * (SEAM_WIDTH * WRAP - 1.0)  # outward of each joint, in shoulder widths
SEAM_UP = 0.12  # above the joints, in shoulder widths (as the affine fit)
HIP_FRONT = 1.7  # a body's front width at the hips, in hip-joint distances
HEM_EASE = 1.15  # a hem hangs this much wider than the body under it
HEM_MIN = 0.8  # ... and is narrowed to no less than this share of its flat width
TPS_SMOOTH = 0.02  # regularisation, in the spline's units (a shoulder width is 1)
GRID_STEP = 8  # the warp's map is solved every GRID_STEP pixels and interpolated


@dataclass(frozen=True)
class Fit:
    """A smooth garment-to-model map: key points in both spaces, and the spline both ways."""

    garment_points: Floats  # (n, 2) garment pixels
    model_points: Floats  # (n, 2) model pixels
    forward: cv2.ShapeTransformer  # garment pixels to model pixels
    backward: cv2.ShapeTransformer  # model pixels to garment pixels
    unit: float  # pixels per spline unit (the model's shoulder width)

    def apply(self, points: Floats, inverse: bool = False) -> Float64:
        """Map (n, 2) points garment to model (or model to garment with inverse)."""
        spline = self.backward if inverse else self.forward
        origin = self.model_points if inverse else self.garment_points
        # Both splines work in shoulder-width units around the key points' centre.
        centre = origin.mean(axis=0)
        target = self.garment_points if inverse else self.model_points
        target_centre = target.mean(axis=0)
        scaled = ((points - centre) / self.unit).astype(np.float32).reshape(1, -1, 2)
        _, mapped = spline.applyTransformation(scaled)
        return np.asarray(mapped.reshape(-1, 2) * self.unit + target_centre, np.float64)


def _spline(a: Floats, b: Floats, unit: float) -> cv2.ShapeTransformer:
    spline = cv2.createThinPlateSplineShapeTransformer(TPS_SMOOTH)
    pa = ((a - a.mean(axis=0)) / unit).astype(np.float32).reshape(1, -1, 2)
    pb = ((b - b.mean(axis=0)) / unit).astype(np.float32).reshape(1, -1, 2)
    matches = [cv2.DMatch(i, i, 0) for i in range(len(a))]
    spline.estimateTransformation(pa, pb, matches)
    return spline


def apply_matrix(matrix: Floats, points: Floats) -> Float64:
    return np.asarray(points @ matrix[:2, :2].T + matrix[:2, 2], np.float64)


# The base of the neck on the model: going down from the chin, the first row where the person's
# matte is wider than this share of the shoulder joints' distance (the neck is ~0.3-0.35; below
# its base the trapezius slopes out). A crew neck's collar corners sit there.
NECK_BASE_WIDTH = 0.55


def neck_base(model: Person) -> float | None:
    """The row of the base of the neck (model pixels), or None without a face."""
    if model.face is None:
        return None
    p = model.pose.points
    h, w = model.rgb.shape[:2]
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    chin = float(model.face[152, 1])
    shoulders = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
    cx = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 0].mean())
    x0, x1 = int(max(0, cx - width)), int(min(w, cx + width))
    for y in range(int(max(0, chin)), int(min(h, shoulders))):
        if float(np.count_nonzero(model.subject.cutout.alpha[y, x0:x1] > 0.5)) > (
            NECK_BASE_WIDTH * width
        ):
            return float(y)
    return None


def torso_fit(shape: GarmentShape, model: Person, collar: NeckOpening | None = None) -> Fit:
    """The smooth fit of the garment's body: its key points (shoulders, armpits, hem corners,
    neckline centre) on the model's landmarks (shoulders, hips), starting from the affine fit."""
    p = model.pose.points
    affine = torso_transform(shape, model)
    across, down, _ = body_axes(model)
    joint_l, joint_r = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    width = float(np.linalg.norm(joint_r - joint_l))
    garment = np.array(
        [shape.left_shoulder, shape.right_shoulder, *shape.armpits, *shape.hem, shape.neck],
        np.float64,
    )
    placed = apply_matrix(affine, garment)
    target = placed.copy()
    seam = float(np.linalg.norm(shape.right_shoulder - shape.left_shoulder))
    if shape.sleeves is not None or seam >= 0.6 * shape.chest_width:
        # Shoulder seams on the shoulders, each on its own joint.
        target[0] = joint_l - across * SEAM_OUT * width - down * SEAM_UP * width
        target[1] = joint_r + across * SEAM_OUT * width - down * SEAM_UP * width
        # Armpits move with their shoulder.
        target[2] += target[0] - placed[0]
        target[3] += target[1] - placed[1]
    # The hem toward the hips' width, about the body's axis.
    hips = p[[models.RIGHT_HIP, models.LEFT_HIP]]
    body_half = 0.5 * HIP_FRONT * float(np.linalg.norm(hips[1] - hips[0]))
    hem_mid = (placed[4] + placed[5]) / 2
    flat_half = 0.5 * float(np.linalg.norm(placed[5] - placed[4]))
    half = float(np.clip(HEM_EASE * body_half, HEM_MIN * flat_half, flat_half))
    target[4] = hem_mid - across * half
    target[5] = hem_mid + across * half
    base = neck_base(model) if collar is not None else None
    if collar is not None and base is not None:
        # A crew neck's collar corners at the sides of the neck's base (the shoulders slope up
        # to it), where the affine fit left them across.
        corners = apply_matrix(affine, np.array([collar.left, collar.right], np.float64))
        lifted = corners + down * (base - corners[:, 1:].mean()) / max(float(down[1]), 0.5)
        garment = np.concatenate([garment, [collar.left, collar.right]])
        target = np.concatenate([target, lifted])
    # Points that fall together (a crop top's armpits on its hem) would pin one spot twice.
    keep = [0]
    for i in range(1, len(garment)):
        if min(float(np.linalg.norm(garment[i] - garment[j])) for j in keep) > 2.0:
            keep.append(i)
    garment, target = garment[keep], target[keep]
    unit = max(width, 8.0)
    return Fit(garment, target, _spline(garment, target, unit), _spline(target, garment, unit),
               unit)


def sleeve_transform(sleeve: Sleeve, torso: Floats, model: Person, left: bool) -> Floats:
    """The torso's transform, then a turn about the shoulder so the sleeve follows the arm."""
    points = model.pose.points
    # Image-left sleeve on the model's right arm.
    shoulder, elbow, wrist = (
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST)
        if left
        else (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST)
    )
    pivot = (torso @ np.append(sleeve.pivot, 1.0))[:2]
    end = (torso @ np.append(sleeve.end, 1.0))[:2]
    upper_arm = float(np.linalg.norm(points[elbow] - points[shoulder]))
    # Long sleeves aim at the wrist, short ones along the upper arm.
    target = points[wrist] if np.linalg.norm(end - pivot) > 1.2 * upper_arm else points[elbow]
    turn = _angle(target - points[shoulder]) - _angle(end - pivot)
    turn = (turn + np.pi) % (2 * np.pi) - np.pi
    return _rotation_about(pivot, turn) @ torso


# Bottoms: the waistband sits this share of the shoulder-to-hip distance above the pose's hip
# joints (mid-rise; the joints are at the top of the thighs), and a flat lay's waist is this
# much wider than the body's front at that height (the waistband wraps half-way around).
WAIST_ABOVE_HIPS = 0.3
WAIST_EASE = 1.05
HIP_VISIBILITY = 0.5


def bottom_transform(alpha: Mask, model: Person) -> Floats:
    """3x3 affine from garment pixels to model pixels for trousers, shorts or a skirt: the
    waistband on the model's waist (from the hip landmarks), as wide as the body there.

    NoGarmentFound when the model's hips are not visible: a bottom is never put elsewhere."""
    p, seen = model.pose.points, model.pose.visibility
    h, w = model.rgb.shape[:2]
    hips = p[[models.LEFT_HIP, models.RIGHT_HIP]]
    if seen[[models.LEFT_HIP, models.RIGHT_HIP]].min() < HIP_VISIBILITY or hips[:, 1].max() >= h:
        raise NoGarmentFound(
            "This looks like trousers, shorts or a skirt, and the chosen model's hips are not "
            "visible; choose a model shown at least down to the thighs."
        )
    across, down, torso = body_axes(model)
    waist_m = hips.mean(axis=0) - down * WAIST_ABOVE_HIPS * torso
    # The body's width at the waist, from the model's matte (a run through the waist's centre).
    row = int(np.clip(waist_m[1], 0, h - 1))
    inside = model.subject.cutout.alpha[row] > 0.5
    cx = int(np.clip(waist_m[0], 0, w - 1))
    body = float(np.linalg.norm(hips[0] - hips[1])) * 1.6  # if the matte says nothing useful
    if inside[cx]:
        gaps_l = np.nonzero(~inside[:cx])[0]
        gaps_r = np.nonzero(~inside[cx:])[0]
        left = gaps_l[-1] + 1 if len(gaps_l) else 0
        right = cx + gaps_r[0] if len(gaps_r) else w
        body = float(right - left)
    # The garment's waistband: its top rows.
    mask = alpha > 0.5
    rows = np.nonzero(mask.any(axis=1))[0]
    top = int(rows[0])
    band = mask[top : top + max(2, (int(rows[-1]) - top) // 20)]
    cols = np.nonzero(band.any(axis=0))[0]
    waist_g = np.array([(cols[0] + cols[-1]) / 2, top], np.float32)
    scale = WAIST_EASE * body / max(float(cols[-1] - cols[0] + 1), 1.0)
    linear = np.stack([across * scale, down * scale], axis=1).astype(np.float64)
    offset = waist_m - linear @ waist_g
    return np.array(
        [[linear[0, 0], linear[0, 1], offset[0]], [linear[1, 0], linear[1, 1], offset[1]],
         [0, 0, 1]],
        np.float64,
    )
