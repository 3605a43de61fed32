"""Model swap: garment key points, dressing a model, and what an identity swap may not touch."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import cv2
import numpy as np
import pytest
from PIL import Image

from core.engine import Background, NoGarmentFound, no_progress
from engine import models, quality
from engine.analysis import find_subject
from engine.cpu import CpuEngine
from engine.digital_model import analyse_person, digital_model
from engine.quality import QualityTooLow
from engine.swap_garment import (
    BOTTOM,
    DRESS,
    OUTERWEAR,
    TOP,
    classify_garment,
    dress_model,
    garment_shape,
    place_garment,
)
from engine.swap_person import identity_swap, recolour_skin
from tests.support.gate import without_checks
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
    """Beige satin trousers are close to skin in colour: they still must not change. (The
    whole swap refuses this photo, whose face is turned too far; the skin recolour it would
    have made is what could have touched the trousers.)"""
    photo_path = next(p for p in fixture_images("people") if p.name == "09597_00.jpg")
    photo = np.asarray(Image.open(photo_path).convert("RGB"))
    model = Image.open(fixture_images("catalog-models")[2]).convert("RGB")  # a fair-skinned model
    subject = find_subject(photo)
    out = recolour_skin(analyse_person(photo, subject), digital_model(np.asarray(model)))
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


# --- Garment classes, bottoms on the hips, no backdrop outline (issue 13, item 5) ---

NAVY = (40, 50, 110)


def _on_white(*polygons: list[tuple[int, int]]) -> np.ndarray:
    image = np.full((1024, 768, 3), 245, np.uint8)
    for polygon in polygons:
        cv2.fillPoly(image, [np.array(polygon, np.int32)], NAVY)
    return image


def synthetic_trousers() -> np.ndarray:
    return _on_white(
        [(234, 120), (534, 120), (560, 400), (600, 940), (420, 940), (384, 420), (348, 940),
         (168, 940), (208, 400)]
    )


def synthetic_skirt() -> np.ndarray:
    return _on_white([(264, 200), (504, 200), (620, 800), (148, 800)])


def synthetic_dress() -> np.ndarray:
    return _on_white(
        [(300, 60), (468, 60), (500, 250), (470, 420), (560, 990), (208, 990), (298, 420),
         (268, 250)]
    )


def synthetic_open_jacket() -> np.ndarray:
    """Long sleeves hanging down, the front open from the hem a quarter of the way up."""
    return _on_white(
        [(250, 150), (340, 130), (428, 130), (518, 150), (530, 900), (400, 900), (384, 700),
         (368, 900), (238, 900)],
        [(250, 150), (150, 820), (215, 830), (262, 330)],
        [(518, 150), (618, 820), (553, 830), (506, 330)],
    )


def test_every_fixture_garment_is_classified_as_a_top() -> None:
    """The fixture garments (garments/SOURCES: OOTDiffusion's examples) are all tops: tees, a
    long-sleeved blouse, camis, a halter, an off-shoulder top, a corset blouse."""
    for path in fixture_images("garments"):
        alpha = find_subject(np.asarray(Image.open(path).convert("RGB"))).cutout.alpha
        found = classify_garment(alpha)
        assert found.kind == TOP, (path.name, found)


def test_trousers_skirts_and_dresses_are_told_apart() -> None:
    assert classify_garment(find_subject(synthetic_trousers()).cutout.alpha).kind == BOTTOM
    assert classify_garment(find_subject(synthetic_skirt()).cutout.alpha).kind == BOTTOM
    assert classify_garment(find_subject(synthetic_dress()).cutout.alpha).kind == DRESS
    assert classify_garment(find_subject(synthetic_tee()[0]).cutout.alpha).kind == TOP
    assert classify_garment(find_subject(synthetic_open_jacket()).cutout.alpha).kind == OUTERWEAR


def test_two_garments_in_one_photo_are_refused_with_a_reason() -> None:
    pair = _on_white([(60, 300), (340, 300), (340, 700), (60, 700)],
                     [(428, 300), (708, 300), (708, 700), (428, 700)])
    model = Image.open(fixture_images("catalog-models")[0]).convert("RGB")
    with pytest.raises(NoGarmentFound, match="what kind of garment"):
        ENGINE.body_swap(Image.fromarray(pair), model, None)


@pytest.mark.parametrize("make", [synthetic_trousers, synthetic_skirt])
def test_bottoms_are_never_placed_on_the_torso(make: Callable[[], np.ndarray]) -> None:
    for model_path in fixture_images("catalog-models")[:4]:
        model_rgb = np.asarray(Image.open(model_path).convert("RGB"))
        garment = Image.fromarray(make())
        out = np.asarray(ENGINE.body_swap(garment, Image.fromarray(model_rgb), None))
        person = digital_model(model_rgb)
        points = person.pose.points
        shoulder_y = float(points[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
        hip_y = float(points[[models.LEFT_HIP, models.RIGHT_HIP], 1].mean())
        torso = hip_y - shoulder_y
        # Where the garment went: the pixels it turned navy.
        navy = (np.abs(out.astype(int) - np.array(NAVY)).sum(axis=2) < 60) & (
            np.abs(model_rgb.astype(int) - np.array(NAVY)).sum(axis=2) >= 60
        )
        ys, _ = np.nonzero(navy)
        assert len(ys) > 20_000, model_path.name
        # Its box starts at the waist (the hip line less a third of the torso), never higher,
        # and most of it lies below the hip line.
        assert ys.min() >= hip_y - 0.35 * torso, (model_path.name, ys.min(), hip_y, torso)
        assert np.median(ys) > hip_y, model_path.name
        # The chest is the model's own.
        chest = slice(int(shoulder_y), int(shoulder_y + 0.5 * torso))
        change = np.abs(out[chest].astype(int) - model_rgb[chest].astype(int)).mean()
        assert change < 1.0, (model_path.name, change)


def test_no_white_outline_around_the_placed_garment() -> None:
    """The ring just outside the garment's edge on the output is not near-white where the model
    photo was not near-white there (the product photo's white backdrop must not come along)."""
    cases = [
        (np.asarray(Image.open(path).convert("RGB")), index)
        for index, path in enumerate(fixture_images("garments")[:4])
    ] + [(synthetic_trousers(), 0)]
    models_ = fixture_images("catalog-models")
    for garment_rgb, index in cases:
        model_rgb = np.asarray(Image.open(models_[index % len(models_)]).convert("RGB"))
        garment = find_subject(garment_rgb, want="garment")
        model = digital_model(model_rgb)
        dressing = place_garment(garment, model)
        try:
            out, _ = dress_model(garment, model, no_progress)
        except QualityTooLow:
            # 00151_00 on model-3 is refused for its torn sides (tests/integration/engine/
            # test_quality.py): nothing is delivered, so there is no outline to look at.
            assert index == 2
            continue
        placed = (dressing.coverage > 0.5).astype(np.uint8)
        ring = (cv2.dilate(placed, np.ones((5, 5), np.uint8)) > 0) & (placed == 0)
        white = lambda rgb: rgb.min(axis=2) > 225  # noqa: E731
        # Where the garment's own colour at its soft edge is white (the FILA tee's white band),
        # white there is the garment's.
        own_white = np.zeros(ring.shape, bool)
        for rgb, layer_alpha in dressing.layers:
            own_white |= (layer_alpha > 0.02) & white(rgb)
        candidates = ring & ~white(model_rgb) & ~own_white
        assert candidates.sum() > 500
        share = float((white(out) & candidates).sum()) / float(candidates.sum())
        # An outline (a band of product backdrop kept in the matte) would whiten most of the
        # ring; today's fixtures measure 0-2.5% (scattered light pixels at a white trim).
        assert share < 0.03, (index, share)


# --- Identity swap with a face cropped by the frame (issue 13, item 4) ---


@pytest.mark.parametrize("name", ["049205_0.jpg", "049447_0.jpg"])
def test_a_cropped_face_swap_changes_the_skin_measurably_or_is_refunded(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Either the visible skin moves visibly toward the model's tone, or the engine refuses with
    QualityTooLow (refunded) and its measure says why; both outcomes are checked with the
    measure itself, for every catalog model."""
    # (A tone this far from the photo's is refused before any work, tone_gap; what the
    # recolour does with it is looked at here all the same.)
    without_checks(monkeypatch, "tone_gap")
    photo = np.asarray(
        Image.open(next(p for p in fixture_images("people") if p.name == name)).convert("RGB")
    )
    subject = find_subject(photo)
    person = analyse_person(photo, subject)
    assert person.face is None, "the fixture's face is cut by the frame"
    skin = person.skin > 0.5
    assert skin.sum() > 5_000
    outcomes = []
    for model_path in fixture_images("catalog-models"):
        model = Image.open(model_path).convert("RGB")
        with quality.recording() as reports:
            try:
                out = np.asarray(ENGINE.body_swap(Image.fromarray(photo), model, None))
            except QualityTooLow as refused:
                report = reports[-1]
                assert not report.passed and report.face_swapped is False
                assert (
                    report.skin_shift is not None and report.skin_shift < quality.MIN_SKIN_SHIFT
                ) or (
                    report.changed_share is not None
                    and report.changed_share < quality.MIN_CHANGED_SHARE
                ) or (
                    report.peak_change is not None
                    and report.peak_change < quality.MIN_PEAK_CHANGE
                )
                assert "credits were returned" in refused.message
                outcomes.append("refunded")
                continue
        shift = quality.colour_shift(photo, out, skin)
        assert shift.mean() >= quality.MIN_SKIN_SHIFT, (model_path.name, shift.mean())
        # Consistent: most of the visible skin moved, not a patch of it.
        assert (shift > quality.CHANGE_DE).mean() > 0.5, model_path.name
        assert reports[-1].passed
        outcomes.append("changed")
    assert "changed" in outcomes  # the fixture models differ enough in tone for some


def test_an_unchanged_person_is_refused_not_charged() -> None:
    """A model of exactly the photo's skin tone and no face to swap: nothing would change."""
    photo = np.asarray(
        Image.open(next(p for p in fixture_images("people") if p.name == "049447_0.jpg"))
        .convert("RGB")
    )
    person = analyse_person(photo)
    assert person.face is None and person.tone is not None
    model_path = fixture_images("catalog-models")[0]
    model = digital_model(np.asarray(Image.open(model_path).convert("RGB")))
    same_tone = dataclasses.replace(model, tone=person.tone.copy())
    with (
        quality.recording() as reports,
        pytest.raises(QualityTooLow, match="credits were returned"),
    ):
        identity_swap(person, same_tone, no_progress)
    assert reports[-1].changed_share is not None
    assert reports[-1].changed_share < quality.MIN_CHANGED_SHARE
