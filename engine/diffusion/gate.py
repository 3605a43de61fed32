"""The artefact gate: every image the diffusion models make is scored before it is used, and what
no camera would make is refused (numpy only).

Random or broken weights make noise, a flat colour, or colour speckle. Three scores, on the
generated frame (the working-size image inside the photo's letterbox box):
- contrast: the standard deviation of the luma (8-bit levels). A flat image has almost none.
- smoothness: the correlation of each pixel's luma with its right and lower neighbours' (mean of
  the two). Natural photos vary smoothly from pixel to pixel; noise does not.
- channel agreement: the mean correlation between the R, G and B channels' Laplacians (their
  finest detail). In a photo an edge is an edge in every channel (fine detail is mostly
  brightness); noise made per channel has none in common (colour speckle).

Calibration (python -m ops.gate_scores prints it): the fixture photos (people, catalog models,
backgrounds, people-wild, people-back, scenes) fitted into 48x64, 96x128 and 768x1024 frames,
against the tiny random-weight set's try-on and relight outputs at 48x64 and 96x128:

                      contrast       smoothness      channel agreement
    photos, 768x1024   12.8-84.4     0.870-0.999     0.517-0.999
    photos, 96x128     12.1-83.5     0.698-0.997     0.429-0.989
    photos, 48x64      11.7-82.4     0.482-0.993     0.361-0.989
    tiny weights       26.2-34.2     0.492-0.590     -0.005-0.068

The smallest smoothness of a photo at 48x64 is one aerial city scene, which at that size is
texture (the people, catalog-model and background photos: 0.768 or more at every size). The
limits sit between the two, with margin on both sides: a photo is never refused at the working
size of the real checkpoints, and the random weights' outputs are refused by two scores of three.

A refused image is re-sampled once with another seed by the engine; a second refusal raises
engine.quality.QualityTooLow (not retryable: the task is refunded), with the reason in plain
words. Every image's scores are logged (one `diffusion gate` line each).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import numpy as np

from engine.arrays import Float32, Image8
from engine.quality import QualityTooLow
from engine.refusals import REFUND
from engine.scores import Scored, log_scores

log = logging.getLogger("engine.diffusion.gate")

# Luma standard deviation below which the image is flat: photos 11.7 at the least (a misty
# scene), random weights 26 or more (they are not flat; a synthetic flat image is 0).
MIN_CONTRAST = 4.0
# Neighbouring-pixel luma correlation below which the image is noise: random weights 0.59 at
# the most; the people, catalog-model and background photos 0.759 at the least at any size,
# every photo 0.870 at 768x1024 (at 48x64 and 96x128 an aerial city scene and a striped garment
# photo score lower: at that size they are texture).
MIN_SMOOTHNESS = 0.68
# Correlation of the channels' finest detail below which the colour is speckle: random weights
# 0.068 at the most, photos 0.361 at the least (0.517 at 768x1024).
MIN_CHANNEL_AGREEMENT = 0.2
# Images larger than this (pixels) are scored at half size (2x2 means), which keeps a 768x1024
# frame cheap and moves no score past a limit (a photo at half of 768x1024 is still far smoother
# than noise: see the 96x128 row above).
SCORE_PIXELS = 400_000
LUMA = np.array([0.299, 0.587, 0.114], np.float32)

REASONS = {
    "flat": "We could not make a usable image (the generated picture came out as one flat "
    "colour)",
    "noise": "We could not make a usable image (the generated picture came out as noise)",
    "colour_speckle": "We could not make a usable image (the generated picture came out as "
    "coloured speckle)",
}


class ArtefactRefused(QualityTooLow):
    """A generated image that looks like no photograph: not delivered, the task refunded."""


@dataclass(frozen=True)
class GateReport(Scored):
    contrast: float
    smoothness: float
    channel_agreement: float
    failures: tuple[str, ...] = field(default_factory=tuple)


def _correlation(a: Float32, b: Float32) -> float:
    """Pearson correlation of two equal arrays; 1.0 when either is constant (nothing to
    disagree about: the contrast score speaks for a flat image)."""
    a = a - a.mean()
    b = b - b.mean()
    scale = float(np.sqrt(np.dot(a.ravel(), a.ravel()) * np.dot(b.ravel(), b.ravel())))
    return float(np.dot(a.ravel(), b.ravel())) / scale if scale > 1e-9 else 1.0


def _laplacian(channel: Float32) -> Float32:
    return np.asarray(4.0 * channel[1:-1, 1:-1] - channel[:-2, 1:-1] - channel[2:, 1:-1]
                      - channel[1:-1, :-2] - channel[1:-1, 2:], np.float32)


def score(rgb: Image8) -> GateReport:
    """The three scores of an 8-bit RGB image, judged."""
    pixels = np.asarray(rgb, np.float32)
    if pixels.shape[0] * pixels.shape[1] > SCORE_PIXELS:
        height, width = pixels.shape[0] // 2, pixels.shape[1] // 2
        halves = pixels[: 2 * height, : 2 * width].reshape(height, 2, width, 2, 3)
        pixels = np.asarray(halves.mean(axis=(1, 3)), np.float32)
    if min(pixels.shape[:2]) < 3:
        return GateReport(0.0, 0.0, 0.0, ("flat",))
    luma = pixels @ LUMA
    contrast = float(luma.std())
    smoothness = (_correlation(luma[:, :-1], luma[:, 1:])
                  + _correlation(luma[:-1], luma[1:])) / 2.0
    detail = [_laplacian(pixels[..., c]) for c in range(3)]
    agreement = (_correlation(detail[0], detail[1]) + _correlation(detail[1], detail[2])
                 + _correlation(detail[0], detail[2])) / 3.0
    failures = []
    if contrast < MIN_CONTRAST:
        failures.append("flat")
    else:  # a flat image's correlations mean nothing
        if smoothness < MIN_SMOOTHNESS:
            failures.append("noise")
        if agreement < MIN_CHANNEL_AGREEMENT:
            failures.append("colour_speckle")
    return GateReport(contrast, smoothness, agreement, tuple(failures))


def check(rgb: Image8, operation: str, seed: int, attempt: int) -> GateReport:
    """Score and log one generated image (never raises: the engine decides what a refusal
    costs, a second seed or the task)."""
    report = score(rgb)
    log_scores(log, "diffusion gate", "gate", report, operation, seed, attempt)
    return report


def refuse(report: GateReport) -> ArtefactRefused:
    """The error for an image refused on every try, its first reason in plain words."""
    return ArtefactRefused(REASONS[report.failures[0]] + REFUND)


__all__ = ["ArtefactRefused", "GateReport", "check", "refuse", "score"]
