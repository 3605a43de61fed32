"""A new visitor's first and second visit of `/` in Chromium (web/e2e/first-visit.spec.ts):
issue 33 item 11, where `make run` served the first visit's JavaScript uncompressed and every
hashed asset without a long Cache-Control.

The walk fails unless every asset comes brotli-compressed and immutable, index.html is
revalidated, and the second visit fetches no asset again; this module prints its figures and
holds the first visit's JavaScript to what the split and the compression give.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.settings import Settings
from tests.support.browser import walk

# The first visit's JavaScript: 593 KB in 13 files before, all of it transferred; 528 KB in 12
# after the split (the login and enterprise forms load when opened), 145 KB transferred (br).
# The bound keeps those forms (react-hook-form, Google sign-in) off the first page.
MAX_FIRST_VISIT_JS = 560_000


def test_the_first_visit_is_compressed_and_the_second_comes_from_the_cache(
    stack: Settings, tmp_path: Path
) -> None:
    report = tmp_path / "first-visit.json"
    result = walk("first-visit.spec.ts", {"BASE_URL": stack.app_url,
                                          "FIRST_VISIT_REPORT": str(report)}, timeout=300)
    assert result.returncode == 0, f"first-visit walk failed:\n{result.output}"
    assert result.summary == "1 passed, 0 failed", result.output
    figures = json.loads(report.read_text())["figures"]
    scripts = figures["scripts"]
    print(f"\nfirst visit of /: {scripts['count']} scripts, {scripts['raw']} bytes of JavaScript, "
          f"{scripts['transferred']} transferred; CSS {figures['styles']['raw']} bytes, "
          f"{figures['styles']['transferred']} transferred")
    assert scripts["raw"] < MAX_FIRST_VISIT_JS, scripts
    assert scripts["transferred"] * 3 < scripts["raw"], scripts  # brotli takes 70% off JS
