"""The model swap's skin tone rule (core/photos/tone_match.py) and what is built on it: the fit of a
model to photos (core/catalog/fit.py) and the submit's list of refused inputs."""

from __future__ import annotations

import numpy as np
import pytest

from core.catalog.fit import ModelFit, Photo, model_fit, swap_refusal
from core.generations.submit import refused_inputs
from core.photos.analysis import (
    BODY_SWAP,
    BURST_REPLACE,
    SEVERAL_PEOPLE,
    Capability,
    PhotoAnalysis,
    analysis_from_json,
    analysis_to_json,
)
from core.photos.tone_match import (
    MAX_TONE_GAP,
    TONE_TOO_FAR,
    lab_from_opencv,
    stored_tone,
    tone_gap,
    tone_refusal,
    too_far,
)

LIGHT = (76.08, 13.0, 22.0)  # people/01008_00 as the engine measures it
DARK = (56.08, 25.0, 27.0)  # people/07966_00


def person(
    tone: tuple[float, float, float] | None, swap: Capability | None = None
) -> PhotoAnalysis:
    return PhotoAnalysis("person", 1, "front", "full", None,
                         {BODY_SWAP: swap or Capability(True), BURST_REPLACE: Capability(True)},
                         tone=tone)


def test_the_rule_allows_up_to_the_limit_and_refuses_beyond() -> None:
    assert tone_gap((50, 0, 0), (50, 12, 16)) == pytest.approx(20.0)
    assert not too_far(MAX_TONE_GAP) and too_far(MAX_TONE_GAP + 0.01)
    assert not too_far(None)
    assert tone_refusal(LIGHT, DARK) == TONE_TOO_FAR
    assert tone_refusal(LIGHT, (75.0, 12.0, 20.0)) is None
    # Not known: nothing is ruled out (the engine's gate still applies when it renders).
    assert tone_refusal(None, DARK) is None and tone_refusal(LIGHT, None) is None


def test_the_engines_opencv_lab_is_read_in_cie_units() -> None:
    lab = lab_from_opencv(np.array([255.0, 138.0, 100.0], np.float32))
    assert lab == pytest.approx((100.0, 10.0, -28.0))


def test_a_stored_tone_survives_json_and_bad_values_are_not_tones() -> None:
    analysis = person(LIGHT)
    assert analysis_from_json(analysis_to_json(analysis)).tone == pytest.approx(LIGHT)
    # An analysis stored before the tone existed reads as "not known".
    stored = analysis_to_json(analysis)
    del stored["tone"]
    assert analysis_from_json(stored).tone is None
    for bad in (None, [], [1, 2], ["a", 1, 2], "x"):
        assert stored_tone(bad) is None


def test_a_model_fits_photos_only_when_it_suits_every_one() -> None:
    light, dark = Photo("u1", person(LIGHT)), Photo("u2", person(DARK))
    assert model_fit([light], list(LIGHT)) == ModelFit(True)
    assert model_fit([light, dark], list(LIGHT)) == ModelFit(False, TONE_TOO_FAR, ("u2",))
    # A model not measured yet, or a photo not analysed yet: not known.
    assert model_fit([light], None) == ModelFit(None)
    assert model_fit([Photo("u3", None)], list(LIGHT)) == ModelFit(None)
    # A model measured without a face ([]), or a garment photo (no tone): nothing to rule out.
    assert model_fit([light], []) == ModelFit(True)
    assert model_fit([Photo("g", person(None))], list(DARK)) == ModelFit(True)
    # A photo the swap refuses on its own: its reason, for every model.
    group = person(LIGHT, Capability(False, SEVERAL_PEOPLE.format(people=2)))
    assert swap_refusal(group, list(LIGHT)) == SEVERAL_PEOPLE.format(people=2)
    assert model_fit([Photo("g2", group)], None).compatible is False


def test_the_submit_names_every_refused_input() -> None:
    assert refused_inputs([(0, TONE_TOO_FAR)], 1) == TONE_TOO_FAR
    message = refused_inputs([(0, "Two people."), (2, TONE_TOO_FAR)], 3)
    assert message == f"Image 1: Two people. Image 3: {TONE_TOO_FAR}."
