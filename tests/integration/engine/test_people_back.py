"""People seen from behind (issue 19, item 5): ../shared/fixtures/images/people-back/ has four
photos without reference masks (a half-length man in a studio, a full-length lunge outdoors, a
woman looking back over her shoulder, a backless dress outdoors). Each must give a clean
cut-out and a new background; a model swap of them is refused by the upload's analysis (tests/
integration/engine/test_photo_analysis.py) and by the imaging step (tests/integration/
test_input_safety.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image

from core.engine import Background
from engine import quality
from engine.analysis import find_subject
from engine.cpu import CpuEngine
from tests.support.paths import fixture_images

PHOTOS = fixture_images("people-back")


@pytest.fixture(scope="module")
def engine() -> CpuEngine:
    return CpuEngine()


@pytest.mark.parametrize("path", PHOTOS, ids=[p.stem for p in PHOTOS])
def test_a_person_from_behind_gives_a_clean_cut_out_and_a_new_background(
    path: object, engine: CpuEngine
) -> None:
    photo = Image.open(str(path)).convert("RGB")
    rgb = np.asarray(photo)
    subject = find_subject(rgb)
    alpha = subject.cutout.alpha
    # The self-check's matte scores pass (decided pixels, no strip of backdrop kept).
    report = quality.judge(
        quality.cutout_report(subject.cutout.rgb, alpha, subject.backdrop, "replace_background")
    )
    assert report.passed, report.summary()
    # One person: a plausible share of the frame, in one piece (no islands of background).
    solid = (alpha > 0.5).astype(np.uint8)
    share = float(solid.mean())
    assert 0.05 < share < 0.8, share
    count, labels, stats, _ = cv2.connectedComponentsWithStats(solid, connectivity=8)
    largest = int(stats[1:, cv2.CC_STAT_AREA].max())
    assert largest >= 0.95 * int(solid.sum()), f"{count - 1} pieces"
    # Background replace works on it: on white the backdrop goes and the person stays (placed
    # as a shop would place them) ...
    out = np.asarray(engine.replace_background(photo, Background.builtin("white")))
    assert out.shape == rgb.shape
    corners = np.concatenate([out[:8, :8].reshape(-1, 3), out[:8, -8:].reshape(-1, 3)])
    assert corners.min() >= 250, "the backdrop's corners became white"
    person = (out < 235).any(axis=2).mean()
    assert person > 0.6 * share, "the person is on the white"
    # ... and cut out in the photo's own framing, the person's pixels are the photo's.
    cut = np.asarray(engine.replace_background(photo, Background.builtin("transparent")))
    assert cut.shape == (*rgb.shape[:2], 4)
    inside = cv2.erode(solid, np.ones((15, 15), np.uint8)) > 0
    assert (cut[..., 3][inside] > 200).mean() > 0.98
    assert np.abs(cut[..., :3][inside].astype(int) - rgb[inside].astype(int)).mean() < 12
