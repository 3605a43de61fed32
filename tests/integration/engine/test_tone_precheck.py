"""The model swap's skin tone rule said before any charge agrees with the engine's own gate
(issue 33 item 9): the photo analysis measures the person's tone exactly as the swap does, the
catalog models' tones are the engine's digital_model ones, and the one rule
(core/photos/tone_match.py) refuses the very pairs the engine refuses, with the same reason."""

from __future__ import annotations

from functools import cache

import pytest
from PIL import Image

from core.engine import no_progress
from core.photos.tone_match import TONE_TOO_FAR, lab_from_opencv, tone_refusal
from engine import quality
from engine.analysis import swap_subject
from engine.arrays import Image8
from engine.cpu import to_array
from engine.digital_model import Person, analyse_person, digital_model
from engine.photo_analysis import analyse_photo
from engine.quality import QualityTooLow
from engine.swap_person import identity_swap, tone_gap
from tests.support.paths import fixture_images

FACES = ["01008_00.jpg", "02849_00.jpg", "07966_00.jpg", "09597_00.jpg", "14627_00.jpg"]


@cache
def _rgb(folder: str, name: str) -> Image8:
    path = next(p for p in fixture_images(folder) if p.name == name)
    return to_array(Image.open(path))


@cache
def _model(name: str) -> Person:
    return digital_model(_rgb("catalog-models", name))


@pytest.mark.parametrize("name", FACES)
def test_the_analysis_measures_the_tone_the_swap_goes_by(name: str) -> None:
    rgb = _rgb("people", name)
    analysis = analyse_photo(rgb)
    person = analyse_person(rgb, swap_subject(rgb))
    assert analysis.tone is not None and person.tone is not None
    assert analysis.tone == pytest.approx(lab_from_opencv(person.tone), abs=1e-6)


def test_the_precheck_refuses_exactly_the_pairs_the_engine_gate_refuses() -> None:
    refused = 0
    for name in FACES:
        rgb = _rgb("people", name)
        analysis = analyse_photo(rgb)
        person = analyse_person(rgb, swap_subject(rgb))
        for model_name in [f"model-{n}.jpg" for n in range(1, 7)]:
            model = _model(model_name)
            assert model.tone is not None
            verdict = tone_refusal(analysis.tone, lab_from_opencv(model.tone))
            early = quality.judge(
                quality.QualityReport("identity_swap", tone_gap=tone_gap(person, model)))
            assert (verdict is not None) == ("tone_gap" in early.failures), (name, model_name)
            refused += verdict is not None
    # Light photos against model-4, dark ones against the light models.
    assert refused >= 10, refused


def test_the_engine_refuses_with_the_rules_reason() -> None:
    rgb = _rgb("people", "07966_00.jpg")
    person = analyse_person(rgb, swap_subject(rgb))
    with pytest.raises(QualityTooLow) as refused:
        identity_swap(person, _model("model-1.jpg"), no_progress)
    assert refused.value.message.startswith(TONE_TOO_FAR)
