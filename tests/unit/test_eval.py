"""`make eval`'s cases and its gate table (ops/eval/), without running the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from ops.eval import composites
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


def test_composites_are_grouped_by_kind_of_scene_and_counted_by_what_the_engine_did() -> None:
    by_kind = composites.cases(FIXTURES)
    scenes = sorted((FIXTURES / "scenes").glob("*.jpg"))
    # Every scene, each with every person, under its kind; the numbered early scenes by what
    # they show, the later ones by their names.
    assert sum(len(c) for c in by_kind.values()) == len(scenes) * len(composites.PEOPLE)
    assert composites.kind_of(Path("scenes/water-02.jpg")) == "water"
    assert composites.kind_of(Path("scenes/scene-02.jpg")) == "room"
    assert {"aerial", "water", "room", "street"} <= set(by_kind)
    case = by_kind["water"][0]
    image = Image.new("RGB", (8, 8))
    made = [
        composites.Composite(Outcome(case, 5.0, image=image), []),
        composites.Composite(Outcome(case, 5.0, image=image), [
            "Framed from the knees up: the scene has water where a person would stand."]),
        composites.Composite(Outcome(case, 5.0, image=image),
                             ["Moved to where the scene has ground to stand on."]),
        composites.Composite(Outcome(case, 5.0, error="NoGround: no ground"), []),
    ]
    assert [c.what for c in made] == ["placed", "medium shot", "moved", "refused"]
    table = composites.table({"water": made})
    assert "| water | 1 | 4 | 1 | 1 | 1 | 1 |" in table
    assert "NoGround: no ground" in table


def test_the_labelled_ground_is_outlined_on_the_composite_where_the_scene_has_a_label() -> None:
    labelled = FIXTURES / "scenes" / "room-02.jpg"
    unlabelled = FIXTURES / "scenes" / "scene-01.jpg"
    grey = Image.new("RGB", (300, 400), (128, 128, 128))
    outlined = np.asarray(composites.ground_outline(grey, labelled))
    green = (outlined[..., 1] > 200) & (outlined[..., 0] < 100)
    # room-02's floor is the frame's bottom strip: the outline runs there and not at the top.
    assert green[300:].any() and not green[:150].any()
    assert np.array_equal(np.asarray(composites.ground_outline(grey, unlabelled)),
                          np.asarray(grey))


def test_the_scene_caption_says_the_camera_height_read_off_it_or_that_eye_level_is_assumed(
) -> None:
    """terrace-01's door gives a table-height camera; street-01 has no ruler the engine reads."""
    terrace = Image.open(FIXTURES / "scenes" / "terrace-01.jpg")
    caption = composites.camera_caption(terrace)
    assert caption.startswith("cam ") and 0.6 <= float(caption.split()[1]) <= 1.0, caption
    street = Image.open(FIXTURES / "scenes" / "street-01.jpg")
    assert composites.camera_caption(street) == "eye level?"
