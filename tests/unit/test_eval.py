"""`make eval`'s cases and its gate table (ops/eval/), without running the engine."""

from __future__ import annotations

from pathlib import Path

from ops.eval.cases import Case, Outcome, build_cases
from ops.eval.sheets import gate_caption
from ops.eval.tables import gate_table, timings_table
from tests.support.paths import FIXTURES


def test_every_fixture_category_is_in_the_cases_for_both_operations() -> None:
    replace, swap = build_cases(FIXTURES)
    for cases in (replace, swap):
        categories = {case.category for case in cases}
        assert categories == {"people", "garments", "people-wild", "people-back", "scenes"}
    # Every scene gets a person placed on it by each operation.
    scenes = sorted((FIXTURES / "scenes").glob("*.jpg"))
    for cases in (replace, swap):
        placed = {case.background for case in cases if case.category == "scenes"}
        assert placed == set(scenes)


def test_the_gate_table_counts_each_verdict_per_category() -> None:
    photo = Path("people/a.jpg")
    case = Case("body_swap", photo, None, None, "people")
    outcomes = [
        Outcome(case, 10.0, image=None, error="QualityTooLow: no", gate_passed=False,
                quality="identity_swap: peak_change=17.0 -> FAILED peak_change"),
        Outcome(case, 0.0, error="Refused at upload: seen from behind",
                refused_at_upload="seen from behind"),
        Outcome(case, 5.0, error="CRASH KeyError: x"),
    ]
    table = gate_table({"body_swap": outcomes})
    assert "| people | body_swap | 3 | 0 | 1 | 1 | 1 |" in table
    assert "refused by the gate" in table and "peak_change=17.0" in table
    assert gate_caption(outcomes[0]) == "gate: peak_change"
    assert gate_caption(outcomes[1]) == "refused at upload"
    assert gate_caption(outcomes[2]) == "error"
    # What the analysis refused took no engine time and is left out of the timings.
    timings = timings_table({"body_swap": outcomes})
    assert "| body_swap | 2 | 3 | 8 |" in timings  # two reached the engine: p50 8 ms
