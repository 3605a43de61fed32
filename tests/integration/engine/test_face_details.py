"""The person swap's details a customer notices first (issue 19): a face turned to the side is
refused before any work, an open smile keeps its own mouth, a model's fringe is not pasted onto
the photo's forehead nor her wisps onto its cheeks, and dark skin taken lighter keeps its colour
instead of turning grey."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from core.engine import no_progress
from engine import quality
from engine.digital_model import FACE_OVAL, Person, analyse_person, digital_model, skin_mask
from engine.quality import QualityTooLow
from engine.swap_person import (
    FEATURES,
    MOUTH_GAP,
    FacePatch,
    blend_face,
    face_patch,
    face_turn,
    identity_swap,
    mouth_gap,
    recolour_skin,
    tone_gap,
)
from tests.support.gate import without_checks
from tests.support.paths import fixture_array

FRONTAL = ["01008_00.jpg", "01861_00.jpg", "05997_00.jpg", "07966_00.jpg", "14627_00.jpg"]


@cache
def _person(folder: str, name: str) -> Person:
    return analyse_person(fixture_array(folder, name))


@cache
def _model(name: str) -> Person:
    return digital_model(fixture_array("catalog-models", name))


def test_a_face_turned_to_the_side_is_refused_before_any_work() -> None:
    """09597_00 looks over his shoulder (0.86): the model's frontal face came out as a band of
    two faces. Refused with the reason; the frontal and three-quarter faces are not."""
    turned = _person("people", "09597_00.jpg")
    assert turned.face is not None and face_turn(turned.face) > quality.MAX_FACE_TURN
    steps: list[float] = []
    with quality.recording() as reports, pytest.raises(QualityTooLow) as refused:
        identity_swap(turned, _model("model-3.jpg"), lambda share, _: steps.append(share))
    assert reports[-1].failures[0] == "face_turn", reports[-1]
    assert "turned too far to the side" in refused.value.message
    assert refused.value.message.endswith("your credits were returned.")
    assert steps == [], "refused before the face was matched"
    for name in FRONTAL:
        face = _person("people", name).face
        assert face is not None and face_turn(face) < 0.5, name


@pytest.mark.parametrize(
    ("folder", "name", "model_name"),
    [("people", "07966_00.jpg", "model-1.jpg"), ("people", "14627_00.jpg", "model-4.jpg"),
     ("people-wild", "wild-11.jpg", "model-4.jpg")],
)
def test_a_skin_tone_carried_too_far_is_refused_before_any_work(
    folder: str, name: str, model_name: str
) -> None:
    """Dark skin to a fair model, fair skin to model-4's dark tone: the outputs came out with
    pale bands and blotches across the face. Refused with the reason, before any step ran."""
    photo, model = _person(folder, name), _model(model_name)
    gap = tone_gap(photo, model)
    assert gap is not None and gap > quality.MAX_TONE_GAP, gap
    steps: list[float] = []
    with quality.recording() as reports, pytest.raises(QualityTooLow) as refused:
        identity_swap(photo, model, lambda share, _: steps.append(share))
    assert reports[-1].failures == ("tone_gap",), reports[-1]
    assert "skin tone is too far" in refused.value.message
    assert refused.value.message.endswith("your credits were returned.")
    assert steps == [], "refused before the face was matched"


def test_related_skin_tones_still_swap() -> None:
    """The same people toward models of a related tone (a medium tone toward model-4 too)."""
    for folder, name, model_name in [("people", "07966_00.jpg", "model-4.jpg"),
                                     ("people", "14627_00.jpg", "model-1.jpg"),
                                     ("people-wild", "wild-10.jpg", "model-4.jpg")]:
        photo, model = _person(folder, name), _model(model_name)
        gap = tone_gap(photo, model)
        assert gap is not None and gap < quality.MAX_TONE_GAP * 0.75, (name, gap)
        with quality.recording() as reports:
            identity_swap(photo, model, no_progress)
        assert reports[-1].passed, reports[-1]


def _alpha_at(patch_alpha: np.ndarray, box: tuple[int, int, int, int], point: np.ndarray) -> float:
    x0, y0, _, _ = box
    return float(patch_alpha[int(point[1]) - y0, int(point[0]) - x0])


def test_an_open_smile_keeps_its_own_mouth() -> None:
    """wild-10 laughs with her teeth showing; a model's closed lips pasted over it left two
    mouths. The photo's own mouth stays (recoloured); a closed mouth takes the model's."""
    laughing = _person("people-wild", "wild-10.jpg")
    model = _model("model-1.jpg")
    assert laughing.face is not None and model.face is not None
    assert mouth_gap(laughing.face) - mouth_gap(model.face) > MOUTH_GAP
    patch = face_patch(laughing, model)
    assert patch is not None
    teeth = laughing.face[[13, 14]].mean(axis=0)
    assert _alpha_at(patch.alpha, patch.box, teeth) < 0.05
    # The eyes are still the model's.
    eye = laughing.face[[33, 133]].mean(axis=0)
    assert _alpha_at(patch.alpha, patch.box, eye) > 0.9
    closed = _person("people", "01008_00.jpg")
    assert closed.face is not None and abs(mouth_gap(closed.face) - mouth_gap(model.face)) < 0.02
    patch = face_patch(closed, model)
    assert patch is not None
    assert _alpha_at(patch.alpha, patch.box, closed.face[[13, 14]].mean(axis=0)) > 0.9


def _dark_on_forehead(photo: Person, rgb: np.ndarray) -> float:
    """The share of the forehead (brows to the mesh's top, between the brows' ends) that is
    much darker (20 L) than the cheek: hair strands."""
    face = photo.face
    assert face is not None
    lightness = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[..., 0].astype(np.float32) * 100 / 255
    x0, x1 = sorted((int(face[70, 0]), int(face[300, 0])))
    y0, y1 = int(face[10, 1]), int(min(face[105, 1], face[334, 1]))
    cx, cy = int(face[50, 0]), int(face[50, 1])
    cheek = float(np.median(lightness[cy - 3 : cy + 4, cx - 3 : cx + 4]))
    return float((lightness[y0:y1, x0:x1] < cheek - 20).mean())


@pytest.mark.parametrize("name", ["01008_00.jpg", "05997_00.jpg"])
def test_a_models_fringe_is_not_pasted_onto_the_forehead(name: str) -> None:
    """model-5's fringe lies inside his hairline points; pasted, it drew dark strands over 11%
    and 5% of these foreheads (their own hair covers 0.4% and 1.5%)."""
    photo = _person("people", name)
    model = _model("model-5.jpg")
    patch = face_patch(photo, model)
    assert patch is not None
    out = blend_face(recolour_skin(photo, model), patch)
    assert _dark_on_forehead(photo, out) <= _dark_on_forehead(photo, photo.rgb) + 0.02
    # The face below the brows is still the model's.
    eye = photo.face[[33, 133]].mean(axis=0) if photo.face is not None else None
    assert eye is not None and _alpha_at(patch.alpha, patch.box, eye) > 0.9


def _lightness_and_chroma(rgb: np.ndarray, where: np.ndarray) -> tuple[float, float]:
    lab = np.median(cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB)[where].astype(np.float32), axis=0)
    return float(lab[0]) * 100 / 255, float(np.hypot(lab[1] - 128, lab[2] - 128))


@pytest.mark.parametrize("model_name", ["model-1.jpg", "model-3.jpg"])
def test_dark_skin_taken_lighter_keeps_its_colour(
    model_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """07966_00 (L 50, chroma 37) toward a fair model (L 77-79, chroma 16-19): lightness moves
    part of the way (the photo's light stays), and the colour must move by a like share, not
    all the way: a skin half as light as the model's with the model's low chroma was grey."""
    # (A tone this far from the photo's is refused before any work, tone_gap; what the
    # recolour does with it is looked at here all the same.)
    without_checks(monkeypatch, "tone_gap")
    photo = _person("people", "07966_00.jpg")
    model = _model(model_name)
    assert model.tone is not None
    skin = photo.skin > 0.9
    before = _lightness_and_chroma(photo.rgb, skin)
    after = _lightness_and_chroma(recolour_skin(photo, model), skin)
    target = (float(model.tone[0]) * 100 / 255,
              float(np.hypot(model.tone[1] - 128.0, model.tone[2] - 128.0)))
    lightness_share = (after[0] - before[0]) / (target[0] - before[0])
    chroma_share = (after[1] - before[1]) / (target[1] - before[1])
    assert 0.2 < lightness_share < 0.8, lightness_share
    assert abs(chroma_share - lightness_share) < 0.3, (lightness_share, chroma_share)
    # The whole swap passes its gate with one even tone.
    with quality.recording() as reports:
        identity_swap(photo, model, no_progress)
    assert reports[-1].passed, reports[-1].summary()


def _model_strands(photo: Person, model: Person, patch: FacePatch) -> np.ndarray:
    """Where the warped model face is hair, not skin, on the face's sides (the photo's mesh
    outline below the brows, less a hull round the eyes, nose and mouth), in the patch's box."""
    face = photo.face
    assert face is not None and model.tone is not None
    x0, y0 = patch.box[:2]
    offset = np.array([x0, y0], np.float32)
    sides = np.zeros(patch.alpha.shape, np.uint8)
    cv2.fillPoly(sides, [np.round(face[FACE_OVAL] - offset).astype(np.int32)], (1,))
    centre = cv2.convexHull(np.round(face[FEATURES] - offset).astype(np.int32))
    cv2.fillConvexPoly(sides, centre, (0,))
    sides[: int(face[[105, 334], 1].mean() - y0)] = 0
    skin = skin_mask(patch.rgb, np.ones(patch.alpha.shape, np.float32), model.tone)
    return (sides > 0) & (skin < 0.5)


@pytest.mark.parametrize("name", ["01008_00.jpg", "05997_00.jpg"])
def test_a_models_wisps_are_not_pasted_onto_the_cheeks(name: str) -> None:
    """model-1's face is framed by thin strands that run down past her eyes to her jaw; pasted
    (the blend took 46-55% of the model there, as a mean weight; 22-29% now, the rest of it
    the feather at the jaw), they drew pale and dark streaks over the photo's
    temples and cheeks. The photo keeps its own (recoloured) skin under them, and the model's
    eyes, nose and mouth."""
    photo = _person("people", name)
    model = _model("model-1.jpg")
    patch = face_patch(photo, model)
    assert patch is not None and photo.face is not None
    strands = _model_strands(photo, model, patch)
    assert strands.sum() > 200, "model-1's wisps must fall on this face's sides"
    assert float(patch.alpha[strands].mean()) < 0.3
    eye = photo.face[[33, 133]].mean(axis=0)
    assert _alpha_at(patch.alpha, patch.box, eye) > 0.9
