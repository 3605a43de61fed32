"""The quality gate on the real CPU engine: every swap output is scored, logged and recorded."""

from __future__ import annotations

import logging

import cv2
import numpy as np
import pytest
from PIL import Image

from engine import quality
from engine.analysis import find_subject
from engine.cpu import CpuEngine
from tests.support.paths import fixture_images

ENGINE = CpuEngine()


def test_a_dressed_model_is_scored_and_passes(caplog: pytest.LogCaptureFixture) -> None:
    garment = Image.open(fixture_images("garments")[0]).convert("RGB")
    model = Image.open(fixture_images("catalog-models")[0]).convert("RGB")
    with caplog.at_level(logging.INFO, logger="engine.quality"), quality.recording() as reports:
        ENGINE.body_swap(garment, model, None)
    (report,) = reports
    assert report.operation == "dress_model" and report.passed
    assert report.garment_kind == "top"
    assert report.garment_fit is not None and report.garment_fit >= quality.MIN_GARMENT_FIT
    assert report.matte_uncertain is not None and report.matte_uncertain < 0.1
    assert any(r.name == "engine.quality" for r in caplog.records)


def test_an_identity_swap_with_a_face_is_scored_as_a_real_change() -> None:
    photo = Image.open(
        next(p for p in fixture_images("people") if p.name == "07966_00.jpg")
    ).convert("RGB")
    model = Image.open(fixture_images("catalog-models")[0]).convert("RGB")
    with quality.recording() as reports:
        out = np.asarray(ENGINE.body_swap(photo, model, None))
    (report,) = reports
    assert report.operation == "identity_swap" and report.passed and report.face_swapped
    assert report.changed_share is not None and report.changed_share > quality.MIN_CHANGED_SHARE
    # The recorded share agrees with the pixels delivered.
    rgb = np.asarray(photo)
    subject = find_subject(rgb).cutout.alpha > 0.5
    shift = quality.colour_shift(rgb, out, subject)
    delivered = float((shift > quality.CHANGE_DE).mean())
    assert delivered == pytest.approx(report.changed_share, abs=0.01)


def test_every_fixture_cutout_passes_the_matte_checks() -> None:
    """So wiring `check_cutout` into the background replace refuses none of the fixtures."""
    for path in fixture_images("people") + fixture_images("garments"):
        subject = find_subject(np.asarray(Image.open(path).convert("RGB")))
        report = quality.check_cutout(
            subject.cutout.rgb, subject.cutout.alpha, subject.backdrop
        )
        assert report.passed, (path.name, report)


def test_a_matte_that_kept_a_band_of_backdrop_is_refused() -> None:
    """The same garment with its matte grown by 12 px (a strip of backdrop kept all round)."""
    subject = find_subject(np.asarray(Image.open(fixture_images("garments")[0]).convert("RGB")))
    grown = cv2.dilate(subject.cutout.alpha, np.ones((25, 25), np.uint8))
    with quality.recording() as reports, pytest.raises(quality.QualityTooLow, match="backdrop"):
        quality.check_cutout(subject.cutout.rgb, grown, subject.backdrop)
    assert reports[-1].residual_backdrop is not None
    assert reports[-1].residual_backdrop > quality.MAX_RESIDUAL_BACKDROP
