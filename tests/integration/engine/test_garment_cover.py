"""Swap (b), dressing a digital model (issue 13, item 5): the model's own bottoms (jeans, a
skirt) do not show beside or below a new dress or a new bottom; a new top leaves them alone."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from PIL import Image

from core.engine import no_progress
from engine import matting, models
from engine.analysis import Subject, find_subject
from engine.digital_model import Person, digital_model, skin_mask
from engine.quality import QualityTooLow
from engine.swap_garment import BOTTOM, DRESS, classify_garment, dress_model, place_garment
from tests.support.gate import NECKLINE_AND_SLEEVES, without_checks
from tests.support.paths import fixture_images

NAVY = (40, 50, 110)


def _on_white(*polygons: list[tuple[int, int]]) -> np.ndarray:
    image = np.full((1024, 768, 3), 245, np.uint8)
    for polygon in polygons:
        cv2.fillPoly(image, [np.array(polygon, np.int32)], NAVY)
    return image


# A long sheath dress (down past the frame on the catalog models), a short one (its narrow
# bodice and flared skirt end at mid-thigh: the old bottoms show below its hem), an A-line skirt
# and wide trousers.
SHAPES: dict[str, list[tuple[int, int]]] = {
    "long dress": [(300, 60), (468, 60), (500, 250), (470, 420), (560, 990), (208, 990),
                   (298, 420), (268, 250)],
    "short dress": [(290, 60), (478, 60), (440, 180), (432, 280), (500, 430), (268, 430),
                    (336, 280), (328, 180)],
    "skirt": [(264, 200), (504, 200), (620, 800), (148, 800)],
    "trousers": [(234, 120), (534, 120), (560, 400), (600, 940), (420, 940), (384, 420),
                 (348, 940), (168, 940), (208, 400)],
}
KINDS = {"long dress": DRESS, "short dress": DRESS, "skirt": BOTTOM, "trousers": BOTTOM}
# On how many catalog models each leaves some of the old bottoms uncovered (all wear jeans or a
# skirt; the wide skirt and trousers cover them but on the men's straight jeans).
UNCOVERING = {"long dress": 5, "short dress": 6, "skirt": 2, "trousers": 2}


@cache
def _garment(name: str) -> Subject:
    if name in SHAPES:
        return find_subject(_on_white(SHAPES[name]), want="garment")
    path = next(p for p in fixture_images("garments") if p.name == name)
    return find_subject(np.asarray(Image.open(path).convert("RGB")), want="garment")


@cache
def _models() -> list[tuple[str, Person]]:
    return [
        (path.name, digital_model(np.asarray(Image.open(path).convert("RGB"))))
        for path in fixture_images("catalog-models")
    ]


def _old_bottoms(model: Person) -> np.ndarray:
    """The model's own bottoms, measured independently of the engine: inside the person, not
    skin, from the hip line down (the catalog models are cut at the thighs or knees; their tops
    end above the hips), away from the forearms and hands (which hang beside the hips, and
    whose shaded skin the skin masks miss)."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    hip_y = int(p[[models.LEFT_HIP, models.RIGHT_HIP], 1].mean())
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    person = model.subject.cutout.alpha > 0.5
    skin = (skin_mask(model.rgb, model.subject.cutout.alpha, model.tone) > 0.3) | (
        model.skin > 0.5
    )
    arms = np.zeros((h, w), np.uint8)
    for elbow, wrist in ((models.LEFT_ELBOW, models.LEFT_WRIST),
                         (models.RIGHT_ELBOW, models.RIGHT_WRIST)):
        a, b = (tuple(int(v) for v in p[i]) for i in (elbow, wrist))
        cv2.line(arms, a, b, (1,), int(0.4 * width))
        # The hand: past the wrist, along the forearm's direction.
        tip = p[wrist] + 0.3 * (p[wrist] - p[elbow])
        cv2.line(arms, b, tuple(int(v) for v in tip), (1,), int(0.5 * width))
    band = np.zeros((h, w), bool)
    band[hip_y:] = True
    # Of the cloth's colour at the crotch (a patch a tenth of the shoulders' width below the
    # hips' middle), lightness loosely (jeans fade and fold): legs in a skirt's shadow are not.
    lab = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    cx, cy = (int(v) for v in p[[models.LEFT_HIP, models.RIGHT_HIP]].mean(axis=0))
    cy += int(0.1 * width)
    reference = np.median(lab[cy - 10 : cy + 10, cx - 10 : cx + 10].reshape(-1, 3), axis=0)
    cloth = (np.linalg.norm(lab[..., 1:] - reference[1:], axis=2) < 18) & (
        np.abs(lab[..., 0] - reference[0]) < 80
    )
    return band & person & ~skin & (arms == 0) & cloth


def _dress(name: str, model: Person) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Output, the output's person matte, and where the new garment is."""
    garment = _garment(name)
    try:
        out, person = dress_model(garment, model, no_progress)
    except QualityTooLow:
        return None  # refused and refunded: nothing to look at
    return out, person, place_garment(garment, model).coverage > 0.5


def _fates(
    model: Person, out: np.ndarray, person: np.ndarray, where: np.ndarray
) -> tuple[float, float]:
    """Of the pixels `where`, the share now skin and the share now backdrop (out of the
    person's matte, and the colour of the model photo's backdrop behind it)."""
    skin = skin_mask(out, np.maximum(person, model.subject.cutout.alpha), model.tone) > 0.5
    behind = matting.estimate_background(model.rgb, model.subject.cutout.alpha)
    close = np.abs(out.astype(np.float32) - behind).max(axis=2) < 14
    backdrop = (person < 0.5) & close
    return float(skin[where].mean()), float((backdrop & ~skin)[where].mean())


def test_the_synthetic_garments_are_dresses_and_bottoms() -> None:
    for name, kind in KINDS.items():
        assert classify_garment(_garment(name).cutout.alpha).kind == kind, name


@pytest.mark.parametrize("name", list(SHAPES))
def test_the_models_own_bottoms_do_not_show_around_a_dress_or_a_new_bottom(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the model's own jeans or skirt lay outside the new garment (beside it, between
    trouser legs, below a short hem), > 85% of it is now skin (legs, belly) or backdrop (the new
    garment is the body's outline there), never the old cloth. (The synthetic dresses' straight
    tops leave a bib of painted skin on the broad models, which the neckline check refuses; the
    bottoms are looked at here all the same.)"""
    without_checks(monkeypatch, *NECKLINE_AND_SLEEVES)
    checked = 0
    for model_name, model in _models():
        dressed = _dress(name, model)
        if dressed is None:
            continue
        out, person, placed = dressed
        # Outside the new garment's soft edge.
        edge = cv2.dilate(placed.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
        exposed = _old_bottoms(model) & ~edge
        if int(exposed.sum()) < 500:
            continue  # the new garment covers this model's bottoms
        skin, backdrop = _fates(model, out, person, exposed)
        assert skin + backdrop > 0.85, (name, model_name, int(exposed.sum()), skin, backdrop)
        checked += 1
    assert checked >= UNCOVERING[name], name


def test_legs_show_below_a_short_dress() -> None:
    """Below a short dress's hem the old jeans or skirt turn to legs: mostly skin (the gap
    between the legs under a skirt is backdrop), with the person's matte kept there."""
    checked = 0
    for model_name, model in _models():
        dressed = _dress("short dress", model)
        if dressed is None:
            continue
        out, person, placed = dressed
        rows = np.nonzero(placed.any(axis=1))[0]
        below = _old_bottoms(model).copy()
        below[: int(rows[-1]) + 6] = False
        if int(below.sum()) < 2000:
            continue
        skin, backdrop = _fates(model, out, person, below)
        assert skin > 0.6, (model_name, skin, backdrop)
        assert skin + backdrop > 0.85, (model_name, skin, backdrop)
        assert float((person[below] > 0.5).mean()) > 0.6, model_name
        checked += 1
    assert checked >= 3


def test_a_new_top_leaves_the_models_jeans_alone() -> None:
    """A top is worn over the model's own bottoms: below the new top's hem they are unchanged,
    and so is the person's matte there."""
    for model_name, model in _models():
        dressed = _dress("00055_00.jpg", model)
        assert dressed is not None, model_name
        out, person, placed = dressed
        rows = np.nonzero(placed.any(axis=1))[0]
        below = _old_bottoms(model).copy()
        below[: int(rows[-1]) + 6] = False
        assert int(below.sum()) > 2000, model_name
        change = np.abs(out.astype(np.int16) - model.rgb.astype(np.int16)).max(axis=2)
        assert float((change[below] <= 2).mean()) > 0.98, model_name
        assert np.array_equal(person[below] > 0.5, model.subject.cutout.alpha[below] > 0.5)
