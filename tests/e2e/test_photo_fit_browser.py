"""Photos a service cannot use, before anyone pays, in Chromium (web/e2e/photo-fit.spec.ts):
issue 33 item 8 (three group photos for a model swap: each listed with its reason, nothing
priced, no Generate; one click switches to a new background, which takes them) and item 9 (one
person with a dark skin tone: the picker marks the light models as not available, with the
reason, and Amara can be picked), at 1366 and 390 px."""

from __future__ import annotations

import os
from pathlib import Path

from core.settings import Settings
from tests.support.browser import walk
from tests.support.paths import fixture_images


def test_unusable_photos_and_unreachable_models_are_said_before_generate(
    stack: Settings, tmp_path: Path
) -> None:
    wild = {path.name: path for path in fixture_images("people-wild")}
    groups = [wild[name] for name in ("wild-01.jpg", "wild-02.jpg", "wild-05.jpg")]
    dark = next(path for path in fixture_images("people") if path.name == "07966_00.jpg")
    # PHOTO_FIT_SHOTS keeps the screenshots somewhere to look at them after the run.
    shots = Path(os.environ.get("PHOTO_FIT_SHOTS") or tmp_path)
    result = walk("photo-fit.spec.ts", {
        "BASE_URL": stack.app_url,
        "GROUP_IMAGES": ",".join(str(path) for path in groups),
        "DARK_IMAGE": str(dark),
        "SCREENSHOT_DIR": str(shots),
    }, timeout=900)
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "4 passed, 0 failed", result.output
    assert len(list(shots.glob("photo-fit-*.png"))) >= 8, "the walk saved too few screenshots"
