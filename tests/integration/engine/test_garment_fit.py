"""Swap (b), dressing a digital model (issue 13, item 5): the smooth fit from garment key points
to body landmarks, the model's own top taken off where the new garment does not reach, and the
inside back of the garment hidden at the neckline."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from PIL import Image

from core.engine import no_progress
from engine import models
from engine.analysis import Subject, find_subject
from engine.digital_model import Person, digital_model, skin_mask
from engine.quality import QualityTooLow
from engine.swap_garment import (
    dress_model,
    garment_shape,
    inside_back,
    neck_opening,
    place_garment,
    torso_fit,
)
from tests.support.gate import NECKLINE_AND_SLEEVES, without_checks
from tests.support.paths import fixture_images


def _garment(name: str) -> Subject:
    return _garments()[name]


@cache
def _garments() -> dict[str, Subject]:
    return {
        path.name: find_subject(np.asarray(Image.open(path).convert("RGB")), want="garment")
        for path in fixture_images("garments")
    }


@cache
def _models() -> list[tuple[str, Person]]:
    return [
        (path.name, digital_model(np.asarray(Image.open(path).convert("RGB"))))
        for path in fixture_images("catalog-models")
    ]


def _shoulders(model: Person) -> tuple[np.ndarray, np.ndarray, float]:
    """Image-left and image-right shoulder joints, and their distance."""
    p = model.pose.points
    left, right = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    return left, right, float(np.linalg.norm(right - left))


# Garments with sleeves (their shoulder seams are well defined): tees and a long-sleeved top.
SLEEVED = ["00055_00.jpg", "00126_00.jpg", "03244_00.jpg", "048554_1.jpg", "049805_1.jpg"]


@pytest.mark.parametrize("name", SLEEVED)
def test_the_garments_shoulders_land_on_the_models_shoulders(name: str) -> None:
    """Through the smooth fit, each shoulder seam of the garment lands at its own shoulder joint
    (a seam sits just above and outside the joint: within a fifth of the shoulders' width), on
    every catalog model; the warp that draws the garment (the spline's other direction) agrees
    with that, and the fit does not fold the garment over itself."""
    garment = _garment(name)
    alpha = garment.cutout.alpha
    shape = garment_shape(alpha)
    assert shape.sleeves is not None, name
    for model_name, model in _models():
        fit = torso_fit(shape, model, neck_opening(alpha, shape))
        left, right, width = _shoulders(model)
        landed = fit.apply(np.array([shape.left_shoulder, shape.right_shoulder], np.float64))
        for point, joint in zip(landed, (left, right), strict=True):
            assert np.linalg.norm(point - joint) < 0.2 * width, (name, model_name, point, joint)
        # The drawing direction: the model's seam points come from the garment's seam points.
        back = fit.apply(landed, inverse=True)
        garment_width = float(np.linalg.norm(shape.right_shoulder - shape.left_shoulder))
        assert np.abs(back - [shape.left_shoulder, shape.right_shoulder]).max() < (
            0.03 * garment_width
        ), (name, model_name, back)
        # No fold: over the garment's box, the map keeps orientation everywhere.
        ys, xs = np.nonzero(alpha > 0.5)
        gx = np.linspace(xs.min(), xs.max(), 12)
        gy = np.linspace(ys.min(), ys.max(), 16)
        grid = np.stack(np.meshgrid(gx, gy), axis=-1)
        mapped = fit.apply(grid.reshape(-1, 2)).reshape(grid.shape)
        du = mapped[:, 1:, :] - mapped[:, :-1, :]
        dv = mapped[1:, :, :] - mapped[:-1, :, :]
        det = du[:-1, :, 0] * dv[:, :-1, 1] - du[:-1, :, 1] * dv[:, :-1, 0]
        assert det.min() > 0, (name, model_name)


def _old_top(model: Person) -> np.ndarray:
    """The model's own top, measured independently of the engine: cloth (not skin) inside the
    person between the shoulder line (less a quarter of the shoulders' width) and the hip line,
    of the colour of the cloth in the middle of the chest (the catalog models wear a plain
    white or yellow top; jeans and skirts differ in colour)."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    left, right, width = _shoulders(model)
    top_y = int(min(left[1], right[1]) - 0.25 * width)
    hip_y = int(p[[models.LEFT_HIP, models.RIGHT_HIP], 1].max())
    cloth = (model.subject.cutout.alpha > 0.5) & (model.skin < 0.5)
    band = np.zeros((h, w), bool)
    band[top_y:hip_y] = True
    cx, chest_y = (left + right) / 2 + np.array([0.0, 0.35 * width])
    lab = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    patch = lab[int(chest_y) - 10 : int(chest_y) + 10, int(cx) - 10 : int(cx) + 10]
    reference = np.median(patch.reshape(-1, 3), axis=0)
    chroma = np.linalg.norm(lab[..., 1:] - reference[1:], axis=2)
    top = band & cloth & (chroma < 12) & (np.abs(lab[..., 0] - reference[0]) < 60)
    # One piece with the chest's cloth (a gap of backdrop between arm and waist is not the top).
    _, labels = cv2.connectedComponents(top.astype(np.uint8))
    chest = labels[int(chest_y) - 10 : int(chest_y) + 10, int(cx) - 10 : int(cx) + 10]
    return np.isin(labels, np.unique(chest[chest > 0]))


def _dress(garment: Subject, model: Person) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        out, _ = dress_model(garment, model, no_progress)
    except QualityTooLow:
        return None  # refused and refunded: nothing to look at
    return out, place_garment(garment, model).coverage


# A top narrower at the top than the models' tank tops (off-shoulder, a cami with thin straps),
# and shorter ones (a cropped tee; the off-shoulder top is short too).
UNCOVERING = ["02305_00.jpg", "02015_00.jpg", "00126_00.jpg", "049920_1.jpg"]


@pytest.mark.parametrize("name", UNCOVERING)
def test_the_models_own_top_does_not_show_beside_the_new_one(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the model's own top lay just outside the new garment (above its neckline, at its
    sides, below its hem down to the hips), the output shows skin (or the garment), not the old
    cloth. (The camisole's bib of painted skin and the ruffle blouse's sleeves are refused by
    the neckline and sleeve checks; the skin is looked at here all the same.)"""
    without_checks(monkeypatch, *NECKLINE_AND_SLEEVES)
    garment = _garment(name)
    checked = 0
    for model_name, model in _models():
        dressed = _dress(garment, model)
        if dressed is None:
            continue
        out, coverage = dressed
        placed = (coverage > 0.5).astype(np.uint8)
        # Outside the garment's soft edge, within a third of the shoulders' width of it.
        width = _shoulders(model)[2]
        near = cv2.dilate(placed, np.ones((int(0.35 * width),) * 2, np.uint8)) > 0
        edge = cv2.dilate(placed, np.ones((5, 5), np.uint8)) > 0
        exposed = _old_top(model) & near & ~edge
        if int(exposed.sum()) < 300:
            continue  # the new garment covers this model's top
        skin = skin_mask(out, model.subject.cutout.alpha, model.tone) > 0.5
        share = float(skin[exposed].mean())
        assert share > 0.85, (name, model_name, int(exposed.sum()), share)
        checked += 1
    assert checked >= 2, name  # the garment does leave some old top uncovered on most models


NECKLINES = ["00055_00.jpg", "00126_00.jpg", "03032_00.jpg", "03244_00.jpg", "048554_1.jpg",
             "049805_1.jpg"]


def test_crew_necks_are_recognised_and_flat_or_deep_tops_are_not() -> None:
    """The inside back is cut only from a crew neck's opening: never from an off-shoulder's flat
    edge, a cami's front, a halter, a stand collar (which covers the neck)."""
    for name in NECKLINES:
        garment = _garment(name)
        assert inside_back(garment.cutout.alpha, garment_shape(garment.cutout.alpha)) is not None
    for name in ["02305_00.jpg", "02015_00.jpg", "04825_00.jpg", "048769_1.jpg", "00470_00.jpg"]:
        alpha = _garment(name).cutout.alpha
        assert inside_back(alpha, garment_shape(alpha)) is None, name


@pytest.mark.parametrize("name", NECKLINES)
def test_the_neck_shows_through_the_neck_opening(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The model's neck and the top of the chest just under the chin stay skin: the product
    photo's view into the neck opening (the inside back, often dark, with a label) is not drawn
    over them. (03032's sleeves, cut off the arms, and 048554's low neckline on model-6 are
    refused by the sleeve and neckline checks; the neck is looked at here all the same.)"""
    without_checks(monkeypatch, *NECKLINE_AND_SLEEVES)
    garment = _garment(name)
    for model_name, model in _models():
        dressed = _dress(garment, model)
        assert dressed is not None, (name, model_name)
        out, _ = dressed
        assert model.face is not None
        left, right, width = _shoulders(model)
        chin = model.face[152]
        # Under the chin down to just above the higher shoulder joint: the neck's front and the
        # base of the neck, a column a tenth of the shoulders' width wide (where the front
        # neckline dips lowest).
        bottom = float(min(left[1], right[1])) - 0.05 * width
        probe = np.zeros(out.shape[:2], bool)
        probe[int(chin[1]) + 6 : int(bottom), int(chin[0] - 0.05 * width) : int(
            chin[0] + 0.05 * width
        )] = True
        was_skin = probe & (model.skin > 0.5)
        assert was_skin.sum() > 200, (name, model_name)
        skin = skin_mask(out, model.subject.cutout.alpha, model.tone) > 0.5
        share = float(skin[was_skin].mean())
        # A high crew neck's front collar may take the lowest rows on a short neck (0.91 at
        # worst on the fixtures); the inside back drawn over the neck left 0.29-0.80 skin.
        assert share > 0.85, (name, model_name, share)

