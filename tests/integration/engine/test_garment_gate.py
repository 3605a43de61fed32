"""Swap (b)'s neckline and sleeves (issue 19): a bib of made-up skin where the model's own top
was, and sleeves that hang beside the arms instead of around them, are refused and refunded;
tops that fit pass both checks by a wide margin."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from core.engine import no_progress
from engine import quality
from engine import swap_garment as garments
from engine.analysis import Subject, find_subject
from engine.digital_model import Person, digital_model
from engine.quality import QualityReport, QualityTooLow
from tests.support.paths import fixture_array


@cache
def _garment(name: str) -> Subject:
    return find_subject(fixture_array("garments", name))


@cache
def _model(name: str) -> Person:
    return digital_model(fixture_array("catalog-models", name))


def _refusal(garment: str, model: str) -> tuple[QualityReport, str]:
    with quality.recording() as reports, pytest.raises(QualityTooLow) as refused:
        garments.dress_model(_garment(garment), _model(model), no_progress)
    return reports[-1], refused.value.message


@pytest.mark.parametrize("model", ["model-1.jpg", "model-5.jpg"])
def test_ruffle_sleeves_hanging_beside_the_arms_are_refused(model: str) -> None:
    """049920's tiered sleeves are placed as one flat shape with the body: the model's arms are
    drawn down the middle of the ruffles, between the body and its own sleeves."""
    report, message = _refusal("049920_1.jpg", model)
    assert report.arm_through is not None and report.arm_through > 0.5, report
    assert "arm_through" in report.failures
    assert "sleeves around the model's arms" in message or "neckline" in message
    assert message.endswith("your credits were returned.")


def test_a_tees_sleeves_cut_off_the_arms_are_refused() -> None:
    """03032's short sleeves land beside model-5's arms, which show between them and the body."""
    report, message = _refusal("03032_00.jpg", "model-5.jpg")
    assert report.arm_through is not None and report.arm_through > 2 * quality.MAX_ARM_THROUGH
    assert report.failures[0] == "arm_through", report
    assert "sleeves around the model's arms" in message


@pytest.mark.parametrize("model", ["model-2.jpg", "model-5.jpg", "model-6.jpg"])
def test_a_bib_of_painted_skin_above_a_camisole_is_refused(model: str) -> None:
    """02015, a camisole, over the models' own tank tops: the tank is taken off and the chest
    above the camisole's neckline painted as skin, a flat block a third to two thirds of the
    neckline region."""
    report, message = _refusal("02015_00.jpg", model)
    assert report.painted_skin is not None and report.painted_skin > 0.3, report
    assert "painted_skin" in report.failures
    assert "made-up skin" in message or "sleeves" in message


def test_a_boat_neck_on_a_broad_model_is_refused_for_its_neckline() -> None:
    report, message = _refusal("049940_1.jpg", "model-6.jpg")
    assert report.failures == ("painted_skin",), report
    assert "neckline" in message and "made-up skin" in message


@pytest.mark.parametrize("model", [f"model-{i}.jpg" for i in range(1, 7)])
def test_tops_that_fit_pass_both_checks_by_a_wide_margin(model: str) -> None:
    """A long-sleeved crew neck (049805) and a sleeveless-looking off-shoulder top (02305, the
    arms in front of its body) on every catalog model."""
    for garment in ("049805_1.jpg", "02305_00.jpg"):
        with quality.recording() as reports:
            garments.dress_model(_garment(garment), _model(model), no_progress)
        report = reports[-1]
        assert report.passed, report
        assert report.arm_through is not None and report.painted_skin is not None
        assert report.arm_through < quality.MAX_ARM_THROUGH / 3, (garment, report)
        assert report.painted_skin < quality.MAX_PAINTED_SKIN / 2, (garment, report)


def test_painted_skin_counts_only_what_the_garment_leaves_showing() -> None:
    """The measure reads the painted mask through the garment's coverage: the same paint under a
    garment that covers the whole neckline counts nothing, and grows with what is uncovered."""
    model = _model("model-6.jpg")
    dressing = garments.place_garment(_garment("02015_00.jpg"), model)
    h, w = dressing.coverage.shape
    painted = np.zeros((h, w), bool)
    left, right, y, width = garments.shoulder_frame(model)
    painted[int(y) : int(y + 0.3 * width), int(left) : int(right)] = True
    none = np.zeros((h, w), bool)
    worn = garments.WornOn(none, none, none, none, painted, none, none)
    open_neck = garments.painted_skin(model, dressing, worn)
    covered = garments.Dressing(dressing.kind, dressing.layers, np.ones((h, w), np.float32))
    assert garments.painted_skin(model, covered, worn) == 0.0
    assert open_neck is not None and open_neck > 0.2


def test_arms_count_only_with_cloth_further_out() -> None:
    """The same visible arm counts when the garment lies beyond it (away from the body) and not
    when the garment lies only on the body's side of it."""
    model = _model("model-1.jpg")
    dressing = garments.place_garment(_garment("049805_1.jpg"), model)
    arms, _ = garments.arm_masks(model)
    arm = arms > 0.5
    h, w = arm.shape
    left, right, _, width = garments.shoulder_frame(model)
    # Cloth only between the arms (the body's side) vs. the same plus a band past each arm.
    inner = np.zeros((h, w), np.float32)
    inner[:, int(left) : int(right)] = 1.0
    inner[arm] = 0.0
    outer = inner.copy()
    arm_cols = np.nonzero(arm.any(axis=0))[0]
    far_left, far_right = int(arm_cols.min()), int(arm_cols.max())
    outer[:, max(0, far_left - int(0.1 * width)) : far_left] = 1.0
    outer[:, far_right + 1 : far_right + 1 + int(0.1 * width)] = 1.0
    none = np.zeros((h, w), bool)
    for coverage, expected_low in ((inner, True), (outer, False)):
        placed = garments.Dressing(dressing.kind, dressing.layers, coverage)
        worn = garments.WornOn(none, none, none, none, none, arm, arm & (coverage <= 0.5))
        value = garments.arm_through(model, placed, worn)
        assert value is not None
        if expected_low:
            assert value < 0.05, value
        else:
            # Rows where the arm is beside the band: most of the arm's pixels.
            assert value > 0.5, value
