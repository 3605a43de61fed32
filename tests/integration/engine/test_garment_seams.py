"""Swap (b)'s shoulders (issue 19): no slit between a garment's body and its sleeves, no dark
streak of "hair" down a dark-skinned model's sleeve seams, and what stays open is refused."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from core.engine import no_progress
from engine import models, quality
from engine import swap_garment as garments
from engine.analysis import Subject, find_subject
from engine.digital_model import Person, digital_model
from engine.quality import QualityTooLow
from engine.swap_garment import place as placing
from tests.support.paths import fixture_array

# The garments whose sleeves opened a slit at the shoulder on every model, and three models
# (two fair, one dark-skinned).
SLIT = ["00055_00.jpg", "00126_00.jpg", "03244_00.jpg", "049805_1.jpg"]
MODELS = ["model-1.jpg", "model-2.jpg", "model-4.jpg"]


@cache
def _garment(name: str) -> Subject:
    return find_subject(fixture_array("garments", name))


@cache
def _model(name: str) -> Person:
    return digital_model(fixture_array("catalog-models", name))


@pytest.mark.parametrize("garment", SLIT)
def test_the_slit_between_body_and_sleeve_is_closed(
    garment: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for model_name in MODELS:
        model = _model(model_name)
        with monkeypatch.context() as unclosed:
            # place_garment (engine/swap_garment/place.py) calls close_seams from its module.
            unclosed.setattr(placing, "close_seams", lambda *_: None)
            before = garments.place_garment(_garment(garment), model)
        _, opened = garments.seam_gaps(before.layers, model, garments.SEAM_CLOSE)
        assert opened.sum() > 50, (garment, model_name, int(opened.sum()))
        after = garments.place_garment(_garment(garment), model)
        window = garments.seam_gaps(after.layers, model, garments.SEAM_CLOSE)[0]
        # The slit is now the garment's: the body layer holds it fully, in the cloth's colours
        # (each filled pixel close to some colour of the garment around it).
        body_rgb, body_alpha = after.layers[0]
        assert (body_alpha[window][opened] == 1.0).all()
        drawn = np.maximum.reduce([a for _, a in before.layers])[window] > 0.99
        cloth = before.layers[0][0][window][drawn & (before.layers[0][1][window] > 0.99)]
        rng = np.random.default_rng(0)
        cloth = cloth[rng.choice(len(cloth), min(len(cloth), 3000), replace=False)]
        filled = body_rgb[window][opened]
        filled = filled[rng.choice(len(filled), min(len(filled), 300), replace=False)]
        nearest = np.abs(filled[:, None, :] - cloth[None, :, :]).sum(axis=2).min(axis=1)
        assert np.median(nearest) < 25, (garment, model_name, float(np.median(nearest)))
        # ... and the gate measures less gap than before, under its threshold.
        was, now = garments.seam_gap_share(before, model), garments.seam_gap_share(after, model)
        assert was is not None and now is not None
        assert now < was and now <= quality.MAX_SEAM_GAPS, (garment, model_name, was, now)


def test_hair_in_front_of_the_garment_grows_from_the_head() -> None:
    """model-4's shadows between arm and torso are dark and not skin: they were drawn in front
    of the garment as brown streaks. Hair is only what reaches the head."""
    model = _model("model-4.jpg")
    hair = garments.hair_mask(model) > 0.5
    p = model.pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    shoulder_y = int(min(p[models.LEFT_SHOULDER, 1], p[models.RIGHT_SHOULDER, 1]))
    nose = float(p[models.NOSE, 0])
    columns = np.abs(np.arange(hair.shape[1]) - nose) > 0.4 * width
    assert hair[shoulder_y:, columns].sum() == 0
    assert hair[:shoulder_y].sum() > 5_000  # her hair is still found around the head
    out, _ = garments.dress_model(_garment("00055_00.jpg"), model, no_progress)
    placed = garments.place_garment(_garment("00055_00.jpg"), model).coverage > 0.99
    below = np.zeros(placed.shape, bool)
    below[shoulder_y + int(0.1 * width):] = True
    skin = np.median(model.rgb[model.skin > 0.9].reshape(-1, 3).astype(np.float32), axis=0)
    close_to_skin = np.abs(out.astype(np.float32) - skin).sum(axis=2) < 40
    assert (close_to_skin & placed & below).sum() < 200


def test_a_garment_whose_seams_stay_open_is_refused() -> None:
    """00151's side seams are torn: on model-5 the striped top leaves wide gaps at the shoulders
    that no closing can fill. Refused, refunded, with the reason."""
    with quality.recording() as reports, pytest.raises(QualityTooLow) as refused:
        garments.dress_model(_garment("00151_00.jpg"), _model("model-5.jpg"), no_progress)
    report = reports[-1]
    assert report.seam_gaps is not None and report.seam_gaps > quality.MAX_SEAM_GAPS
    assert "seam_gaps" in report.failures
    assert refused.value.message.endswith("your credits were returned.")
