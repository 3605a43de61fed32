"""The generative engine's artefact gate (engine/diffusion/gate.py): the fixture photos pass at
every working size with margin; synthetic noise, flat images and colour speckle are refused,
each with its reason in plain words. (What the tiny random weights make is refused in
tests/imaging/test_diffusion_engine.py, which has torch.)"""

from __future__ import annotations

import logging

import cv2
import numpy as np
import pytest

from core.engine import EngineError
from engine.diffusion import gate
from engine.quality import QualityTooLow
from ops.gate_scores import SIZES, line, photo_reports
from tests.support.paths import fixture_images

# The calibration sets the gate must never refuse, at any working size (scenes: at the real
# checkpoints' size only; at 48x64 an aerial city is texture).
PHOTOS = ("people", "catalog-models", "backgrounds", "people-wild", "people-back")
RNG = np.random.default_rng(35)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_fixture_photo_passes_with_margin(size: tuple[int, int]) -> None:
    for folder in PHOTOS:
        fixture_images(folder)  # a skip with the reason when ../shared is not there
    folders = PHOTOS + (("scenes",) if size == SIZES[-1] else ())
    reports = photo_reports(size, folders)
    print()
    for folder, scored in reports.items():
        print(line(f"{folder} {size[0]}x{size[1]}", scored))
        assert len(scored) >= 4, folder
        for report in scored:
            assert report.passed, (folder, report)
            assert report.contrast > 2 * gate.MIN_CONTRAST
            assert report.smoothness > gate.MIN_SMOOTHNESS + 0.05, (folder, report)
            assert report.channel_agreement > gate.MIN_CHANNEL_AGREEMENT + 0.1, (folder, report)


def smooth(shape: tuple[int, int], sigma: float) -> np.ndarray:
    """A smooth random field scaled to 0..255 (a stand-in for a natural image's one channel)."""
    field = cv2.GaussianBlur(RNG.normal(size=shape).astype(np.float32), (0, 0), sigma)
    field = (field - field.min()) / (field.max() - field.min())
    return np.asarray(field * 255.0)


def image(*channels: np.ndarray) -> np.ndarray:
    return np.clip(np.stack(channels, axis=-1) + 0.5, 0, 255).astype(np.uint8)


def test_colour_noise_is_refused_as_noise_and_speckle() -> None:
    noise = RNG.integers(0, 256, (128, 96, 3), dtype=np.uint8)
    report = gate.score(noise)
    assert report.failures == ("noise", "colour_speckle")
    assert report.smoothness < 0.1 and abs(report.channel_agreement) < 0.1


def test_grey_noise_is_refused_as_noise() -> None:
    grey = RNG.integers(0, 256, (128, 96), dtype=np.uint8).astype(np.float32)
    assert gate.score(image(grey, grey, grey)).failures == ("noise",)


def test_noise_over_a_photo_like_image_is_refused() -> None:
    """Half signal, half per-pixel noise: far noisier than any photo."""
    base = smooth((128, 96), 6.0)
    noisy = image(*(base + RNG.normal(0, 60, base.shape) for _ in range(3)))
    assert "noise" in gate.score(noisy).failures


def test_a_flat_image_is_refused_even_with_a_little_grain() -> None:
    flat = np.full((128, 96, 3), 181, np.uint8)
    assert gate.score(flat).failures == ("flat",)
    grain = np.clip(flat.astype(int) + RNG.integers(-3, 4, flat.shape), 0, 255).astype(np.uint8)
    report = gate.score(grain)
    assert report.failures == ("flat",) and report.contrast < gate.MIN_CONTRAST
    assert gate.score(np.zeros((2, 2, 3), np.uint8)).failures == ("flat",)


def test_channels_with_no_detail_in_common_are_refused_as_speckle() -> None:
    """Three smooth fields, one per channel, unrelated: smooth, but no camera makes it."""
    shape = (128, 96)
    speckle = image(smooth(shape, 2.0), smooth(shape, 2.0), smooth(shape, 2.0))
    report = gate.score(speckle)
    assert report.failures == ("colour_speckle",), report
    # The same field in every channel (tinted) is a plausible image.
    field = smooth(shape, 2.0)
    assert gate.score(image(field, 0.8 * field + 20, 0.6 * field + 40)).passed


def test_a_large_frame_is_scored_at_half_size_with_the_same_verdicts() -> None:
    big = cv2.resize(smooth((128, 96), 3.0), (768, 1024), interpolation=cv2.INTER_CUBIC)
    assert gate.score(image(big, big, big)).passed
    noise = RNG.integers(0, 256, (1024, 768, 3), dtype=np.uint8)
    assert gate.score(noise).failures == ("noise", "colour_speckle")


def test_a_refusal_is_refunded_with_its_reason_in_plain_words() -> None:
    assert issubclass(gate.ArtefactRefused, QualityTooLow)
    assert issubclass(gate.ArtefactRefused, EngineError) and not gate.ArtefactRefused.retryable
    for reason, words in (("noise", "came out as noise"), ("flat", "one flat colour"),
                          ("colour_speckle", "coloured speckle")):
        error = gate.refuse(gate.GateReport(1.0, 0.0, 0.0, (reason,)))
        assert words in str(error) and str(error).endswith("your credits were returned.")


def test_each_image_s_scores_are_logged(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="engine.diffusion.gate")
    report = gate.check(np.full((64, 48, 3), 90, np.uint8), "tryon", seed=7, attempt=2)
    (record,) = [r for r in caplog.records if hasattr(r, "gate")]
    assert record.gate == {**report.as_dict(), "operation": "tryon", "seed": 7, "attempt": 2}
    assert record.gate_passed is False and "refused flat" in record.getMessage()
