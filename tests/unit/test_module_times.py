"""MM_MODULE_TIMES=1's report file: `make test` runs pytest twice (the suite, then tests/imaging);
the second run must not overwrite the first one's report."""

from __future__ import annotations

from tests.support.paths import REPO
from tests.support.timing import default_report


def test_the_whole_suite_reports_to_module_times_txt() -> None:
    assert default_report([]) == REPO / "out" / "module-times.txt"
    assert default_report(["tests"]) == REPO / "out" / "module-times.txt"
    assert default_report(["-q", "tests/unit", "tests/e2e"]) == REPO / "out" / "module-times.txt"


def test_a_run_of_one_folder_or_module_gets_its_own_report() -> None:
    assert default_report(["tests/imaging"]) == REPO / "out" / "module-times-imaging.txt"
    assert default_report(["tests/unit/test_scene.py::test_x"]) == (
        REPO / "out" / "module-times-test_scene.txt")
