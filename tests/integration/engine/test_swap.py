"""Model swap: garment key points, dressing a model, and what an identity swap may not touch."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

from core.engine import Background
from engine import models
from engine.analysis import find_subject
from engine.cpu import CpuEngine
from engine.digital_model import analyse_person
from engine.swap_garment import garment_shape
from tests.support.paths import fixture_images

ENGINE = CpuEngine()
GREEN = (30, 170, 60)


def synthetic_tee(sleeve_drop: int = 120) -> tuple[np.ndarray, dict[str, tuple[int, int]]]:
    """A flat green T-shirt on a white backdrop, with its true key points (pixels)."""
    height, width = 1024, 768
    image = np.full((height, width, 3), 250, np.uint8)
    shoulder_l, shoulder_r = (250, 200), (518, 200)
    tip_l, tip_r = (110, 200 + sleeve_drop), (658, 200 + sleeve_drop)
    body = np.array(
        [shoulder_l, (330, 180), (438, 180), shoulder_r, (518, 820), (250, 820)], np.int32
    )
    cv2.fillPoly(image, [body], GREEN)
    for shoulder, tip, pit in ((shoulder_l, tip_l, (250, 330)), (shoulder_r, tip_r, (518, 330))):
        dx = 1 if tip[0] > shoulder[0] else -1
        sleeve = np.array(
            [shoulder, (tip[0], tip[1] - 55), (tip[0] + 10 * dx, tip[1] + 55), pit], np.int32
        )
        cv2.fillPoly(image, [sleeve], GREEN)
    return image, {
        "left_shoulder": shoulder_l,
        "right_shoulder": shoulder_r,
        "left_tip": tip_l,
        "right_tip": tip_r,
    }


def test_garment_key_points_of_a_flat_tee() -> None:
    image, truth = synthetic_tee()
    subject = find_subject(image)
    assert subject.cutout.kind == "garment"
    shape = garment_shape(subject.cutout.alpha)
    assert shape.sleeves is not None, "a T-shirt's sleeves must be found"
    tolerance = 0.06 * 768
    for name, found in (
        ("left_shoulder", shape.left_shoulder),
        ("right_shoulder", shape.right_shoulder),
    ):
        assert np.linalg.norm(found - truth[name]) < tolerance, (name, found)
    left, right = shape.sleeves
    assert np.linalg.norm(left.end - truth["left_tip"]) < 2 * tolerance, left.end
    assert np.linalg.norm(right.end - truth["right_tip"]) < 2 * tolerance, right.end


def test_a_camisole_has_no_sleeves() -> None:
    image = np.full((1024, 768, 3), 250, np.uint8)
    cv2.fillPoly(
        image, [np.array([(260, 300), (508, 300), (540, 800), (228, 800)], np.int32)], GREEN
    )
    cv2.line(image, (280, 300), (300, 150), GREEN, 10)  # straps
    cv2.line(image, (488, 300), (468, 150), GREEN, 10)
    shape = garment_shape(find_subject(image).cutout.alpha)
    assert shape.sleeves is None


def test_dressing_puts_the_garment_on_the_models_torso() -> None:
    model_path = fixture_images("catalog-models")[0]
    model = Image.open(model_path).convert("RGB")
    tee, _ = synthetic_tee()
    out = np.asarray(ENGINE.body_swap(Image.fromarray(tee), model, None))
    model_rgb = np.asarray(model)
    assert out.shape == model_rgb.shape
    person = analyse_person(model_rgb)
    points = person.pose.points
    shoulders = (points[models.LEFT_SHOULDER] + points[models.RIGHT_SHOULDER]) / 2
    hips = (points[models.LEFT_HIP] + points[models.RIGHT_HIP]) / 2
    # The chest, and the upper arms just below the shoulders (where the sleeves go).
    probes = [shoulders + 0.35 * (hips - shoulders)]
    for shoulder, elbow in (
        (models.LEFT_SHOULDER, models.LEFT_ELBOW),
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW),
    ):
        probes.append(points[shoulder] + 0.3 * (points[elbow] - points[shoulder]))
    for x, y in probes:
        patch = out[int(y) - 4 : int(y) + 5, int(x) - 4 : int(x) + 5].reshape(-1, 3).mean(0)
        assert patch[1] > patch[0] + 40 and patch[1] > patch[2] + 40, (x, y, patch)
    # The face stays the model's own.
    assert person.face is not None
    x0, y0 = person.face.min(0).astype(int)
    x1, y1 = person.face.max(0).astype(int)
    face_change = np.abs(out[y0:y1, x0:x1].astype(int) - model_rgb[y0:y1, x0:x1].astype(int))
    assert face_change.mean() < 1.0


def test_identity_swap_leaves_skin_coloured_trousers_alone() -> None:
    """Beige satin trousers are close to skin in colour: they still must not change."""
    photo_path = next(p for p in fixture_images("people") if p.name == "09597_00.jpg")
    photo = np.asarray(Image.open(photo_path).convert("RGB"))
    model = Image.open(fixture_images("catalog-models")[2]).convert("RGB")  # a fair-skinned model
    out = np.asarray(ENGINE.body_swap(Image.fromarray(photo), model, None))
    subject = find_subject(photo)
    assert subject.pose is not None
    points = subject.pose.points
    hip_y = int(points[[models.LEFT_HIP, models.RIGHT_HIP], 1].max())
    trousers = np.zeros(photo.shape[:2], bool)
    trousers[hip_y:] = subject.cutout.alpha[hip_y:] > 0.95
    # Hands hang beside the trousers: leave a margin around the wrists and fingers.
    hands = np.zeros(photo.shape[:2], np.uint8)
    for index in (models.LEFT_WRIST, models.RIGHT_WRIST, 17, 18, 19, 20, 21, 22):
        cv2.circle(hands, (int(points[index][0]), int(points[index][1])), 70, (1,), -1)
    trousers &= hands == 0
    assert trousers.sum() > 30_000
    change = np.abs(out.astype(int) - photo.astype(int))[trousers].mean()
    assert change <= 2.0, change
    # ... while the visible skin did change (the model is much lighter).
    person = analyse_person(photo, subject)
    skin = person.skin > 0.9
    assert skin.sum() > 5_000
    assert np.abs(out.astype(int) - photo.astype(int))[skin].mean() > 10


def test_body_swap_on_a_background_keeps_the_photo_size() -> None:
    photo = Image.open(fixture_images("people")[0]).convert("RGB")
    model = Image.open(fixture_images("catalog-models")[1]).convert("RGB")
    out = ENGINE.body_swap(photo, model, Background.builtin("transparent"))
    assert out.mode == "RGBA" and out.size == photo.size
    alpha = np.asarray(out.getchannel("A"))
    assert 0.15 < (alpha > 127).mean() < 0.8
