"""The quality gate's measures and verdicts (engine/quality.py), on small synthetic arrays."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from core.engine import EngineError
from engine import quality
from engine.quality import QualityReport, QualityTooLow


def test_a_refusal_is_a_non_retryable_engine_error() -> None:
    # The imaging activity turns a non-retryable EngineError into "EngineRejected": refunded.
    assert issubclass(QualityTooLow, EngineError)
    assert QualityTooLow.retryable is False


def test_change_measure_counts_only_visible_changes() -> None:
    before = np.full((20, 20, 3), 120, np.uint8)
    after = before.copy()
    after[:5] = 160  # a quarter of the rows clearly changed
    after[5:10] = 121  # one level: invisible
    subject = np.ones((20, 20), bool)
    changed, skin_shift = quality.change_measure(before, after, subject, subject)
    assert changed == pytest.approx(0.25)
    assert skin_shift > quality.CHANGE_DE * 0.25
    unchanged, no_shift = quality.change_measure(before, before, subject, subject)
    assert unchanged == 0.0 and no_shift == 0.0


def test_peak_change_is_the_level_the_top_tenth_of_a_percent_reach() -> None:
    before = np.full((100, 100, 3), 120, np.uint8)
    subject = np.ones((100, 100), bool)
    after = before.copy()
    after[:1, :50, 0] = 144  # 50 pixels (0.5%) changed by 24 levels in red only
    assert quality.peak_change(before, after, subject) == 24.0
    # Five stray pixels (0.05%) that changed a lot do not make a change.
    after[50, :5] = 255
    assert quality.peak_change(before, after, subject) == 24.0
    # ... but as many as the top 0.1% do.
    after[51, :10] = 255
    assert quality.peak_change(before, after, subject) == 135.0
    # Only the subject counts: the same changes outside it are nothing.
    assert quality.peak_change(before, after, np.zeros_like(subject)) == 0.0
    outside = subject.copy()
    outside[:2] = outside[50:52] = False
    assert quality.peak_change(before, after, outside) == 0.0


def test_skin_mismatch_is_how_far_face_and_body_tones_moved_apart() -> None:
    skin = np.array([200, 150, 120], np.uint8)
    before = np.tile(skin, (40, 40, 1))
    face = np.zeros((40, 40), bool)
    face[:20] = True
    body = ~face
    evenly = before.copy()
    evenly[:] = (120, 80, 60)  # the whole person took a darker tone: still one tone
    assert abs(quality.skin_mismatch(before, evenly, face, body) or 0.0) < 1.0
    face_only = before.copy()
    face_only[:20] = (120, 80, 60)  # only the face did
    mismatch = quality.skin_mismatch(before, face_only, face, body)
    assert mismatch is not None and mismatch > quality.MAX_SKIN_MISMATCH
    # Too few pixels to measure a tone: no score rather than a guess.
    tiny = np.zeros_like(face)
    tiny[0, :5] = True
    assert quality.skin_mismatch(before, face_only, tiny, body) is None


def test_holes_count_only_inside_the_outline_and_on_the_body() -> None:
    cover = np.zeros((50, 50), bool)
    cover[10:40, 10:40] = True
    assert quality.holes_in(cover, np.ones_like(cover)) == 0.0
    cover[20:25, 20:30] = False  # a 50-pixel hole in a 900-pixel outline
    assert quality.holes_in(cover, np.ones_like(cover)) == pytest.approx(50 / 900)
    off_body = np.ones_like(cover)
    off_body[15:30] = False
    assert quality.holes_in(cover, off_body) == 0.0


def test_unchanged_share_is_what_kept_its_colour() -> None:
    before = np.full((10, 10, 3), 90, np.uint8)
    after = before.copy()
    after[:3] = (200, 30, 30)
    region = np.ones((10, 10), bool)
    assert quality.unchanged_share(before, after, region) == pytest.approx(0.7)
    assert quality.unchanged_share(before, after, np.zeros_like(region)) == 0.0


def test_matte_uncertainty_is_the_undecided_share() -> None:
    alpha = np.zeros((10, 10), np.float32)
    alpha[:, :6] = 1.0
    alpha[:, 6:8] = 0.5
    assert quality.matte_uncertainty(alpha) == pytest.approx(2 / 8)
    assert quality.matte_uncertainty(np.zeros((4, 4), np.float32)) == 1.0


def test_edge_band_is_inside_the_matte_along_its_edge() -> None:
    alpha = np.zeros((40, 40), np.float32)
    alpha[10:30, 10:30] = 1.0
    band = quality.edge_band(alpha, 2)
    assert band[10, 20] and band[11, 20] and not band[20, 20] and not band[9, 20]


@pytest.mark.parametrize(
    ("report", "failure"),
    [
        (QualityReport("identity_swap", changed_share=0.001, face_swapped=True), "changed_share"),
        (QualityReport("identity_swap", changed_share=0.2, skin_shift=2.0, face_swapped=False),
         "skin_shift"),
        (QualityReport("identity_swap", changed_share=0.2, peak_change=24.0, face_swapped=True),
         "peak_change"),
        (QualityReport("identity_swap", changed_share=0.2, peak_change=90.0, skin_mismatch=15.0,
                       face_swapped=True), "skin_mismatch"),
        (QualityReport("dress_model", garment_fit=0.1, garment_on_body=0.9), "garment_fit"),
        (QualityReport("dress_model", garment_fit=0.9, garment_on_body=0.9, garment_holes=0.1),
         "garment_holes"),
        (QualityReport("dress_model", garment_fit=0.9, garment_on_body=0.9, old_clothing=0.8),
         "old_clothing"),
        (QualityReport("dress_model", garment_fit=0.9, garment_on_body=0.2), "garment_on_body"),
        (QualityReport("dress_model", matte_uncertain=0.8), "matte_uncertain"),
        (QualityReport("dress_model", residual_backdrop=0.9), "residual_backdrop"),
    ],
)
def test_each_check_below_its_threshold_refuses_with_a_reason(
    report: QualityReport, failure: str
) -> None:
    with quality.recording() as reports, pytest.raises(QualityTooLow) as refused:
        quality.enforce(report)
    assert reports[-1].failures[0] == failure
    assert refused.value.message.endswith("your credits were returned.")


def test_a_good_output_passes_and_its_scores_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    good = QualityReport(
        "identity_swap", matte_uncertain=0.05, residual_backdrop=0.01, changed_share=0.1,
        skin_shift=12.0, peak_change=60.0, skin_mismatch=1.0, face_swapped=False,
    )
    with caplog.at_level(logging.INFO, logger="engine.quality"), quality.recording() as reports:
        judged = quality.enforce(good)
    assert judged.passed and reports == [judged]
    line = next(r for r in caplog.records if r.name == "engine.quality")
    assert line.quality["changed_share"] == 0.1  # type: ignore[attr-defined]
    assert "-> ok" in judged.summary()


def test_reports_are_recorded_only_inside_recording() -> None:
    with quality.recording() as reports:
        pass
    quality.enforce(QualityReport("dress_model", garment_fit=1.0, garment_on_body=1.0))
    assert reports == []
