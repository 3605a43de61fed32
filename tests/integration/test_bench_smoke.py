"""`make bench` in a tiny mode (a few generations, a few seconds): every figure of issue 11 is
measured and written to the JSON, with sane values. No speed is asserted here: the figures
belong to the benchmark, and this machine is shared.

The two runs (every section on SQLite; capacity and polls on both databases) are processes with
stacks of their own that spend most of their time waiting (stacks starting, timed sections,
workers warming up), so they run side by side: the SQLite run starts as the module starts, the
other once the first has timed its singles (the engine alone beside end to end, whose ratio is
checked, is timed with no other bench loading the machine).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ops.bench.run import TARGETS
from ops.bench.support import BENCH_PHOTOS
from tests.conftest import postgres_available
from tests.support.paths import FIXTURES, REPO

pytestmark = [
    pytest.mark.skipif(
        not (FIXTURES / "people").is_dir(), reason=f"fixture photos not found in {FIXTURES}"
    ),
    # Both runs start as the module starts (see the module's docstring).
    pytest.mark.usefixtures("sqlite_bench", "postgres_bench"),
]

# Figures every full (tiny) run must produce, beside the targets' own.
FIGURES = (
    "P_ms",
    "single_engine_p50_ms_burstreplace",
    "single_e2e_p50_ms_burstreplace",
    "single_engine_p50_ms_bodySwap",
    "single_e2e_p50_ms_bodySwap",
    "burst_generations_per_s",
    "burst_cpu_api_P",
    "burst_cpu_temporal_P",
    "burst_cpu_worker_P",
    "burst_cpu_storage_P",
    "burst_cpu_imaging_P",
    "burst_cpu_engine_P",
    "noop_single_p50_ms",
    "noop_p95_ms",
    "longpoll_delay_p50_ms",
    "poll_rps",
    "bare_rps",
    "poll_rps_otel_none",
    "poll_rps_uncached",
    "floor_cpu_temporal_P",
    "floor_cpu_workflow_worker_P",
    "floor_cpu_activity_worker_P",
    "scale_cpu_1x1_generations_per_s",
    "scale_cpu_2x2_generations_per_s",
    "scale_noop_1x1_generations_per_s",
    "scale_noop_2x2_generations_per_s",
)


@dataclass
class BenchRun:
    """`python -m ops.bench --tiny` running in the background, its output in a log file."""

    out: Path
    log: Path
    process: subprocess.Popen[bytes]

    @classmethod
    def start(cls, folder: Path, *args: str) -> BenchRun:
        folder.mkdir(parents=True, exist_ok=True)
        out, log = folder / "bench.json", folder / "bench.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "ops.bench", "--tiny", "--out", str(out), *args],
                cwd=REPO, stdout=sink, stderr=subprocess.STDOUT,
            )
        return cls(out, log, process)

    def runs(self, timeout: float = 900) -> dict[str, dict[str, object]]:
        """The runs by database, each with its "sizes" (how much the tiny mode measured) and
        "pairs" (the model each bench photo was swapped to), once the bench has ended."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"the bench ran over {timeout:.0f} s:\n{self.output()}")
        assert code == 0, f"the bench exited with {code}:\n{self.output()}"
        print(self.output())
        document = json.loads(self.out.read_text())
        runs: dict[str, dict[str, object]] = document["runs"]
        for figures in runs.values():
            figures["sizes"] = document["sizes"]
            figures["pairs"] = document["pairs"]
        return runs

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]

    def wait_for(self, text: str, timeout: float = 600) -> None:
        """Until the bench has printed `text` (or ended: its test reports why)."""
        deadline = time.monotonic() + timeout
        while text not in self.log.read_text(errors="replace"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                return
            time.sleep(0.5)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def sqlite_bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BenchRun]:
    """Every section, on SQLite."""
    run = BenchRun.start(tmp_path_factory.mktemp("bench-sqlite"))
    try:
        yield run
    finally:
        run.stop()


@pytest.fixture(scope="module")
def postgres_bench(
    tmp_path_factory: pytest.TempPathFactory, sqlite_bench: BenchRun
) -> Iterator[BenchRun | None]:
    """Capacity and polls on SQLite and PostgreSQL side by side, started once the SQLite run
    has timed its singles, the last of which is model swap's (None without PostgreSQL)."""
    if not postgres_available():
        yield None
        return
    sqlite_bench.wait_for("single bodySwap:")
    run = BenchRun.start(tmp_path_factory.mktemp("bench-both"), "--db", "both",
                         "--only", "capacity,polls")
    try:
        yield run
    finally:
        run.stop()


def number(figures: dict[str, object], key: str) -> float:
    value = figures[key]
    assert isinstance(value, int | float), f"{key} = {value!r}"
    assert math.isfinite(value), f"{key} = {value!r}"
    return float(value)


def test_tiny_bench_writes_every_figure(sqlite_bench: BenchRun) -> None:
    figures = sqlite_bench.runs()["sqlite"]
    # The single's overhead over the floor is a difference of two timings: it may come out
    # below zero on a tiny run, but it is there and finite.
    signed = {"single_overhead_floors_burstreplace", "single_overhead_floors_bodySwap"}
    for key in FIGURES + tuple(t.key for t in TARGETS):
        assert number(figures, key) >= 0 or key in signed, key
    # The three control-plane figures below fixed costs are reported, also as floor multiples.
    for key in ("burst_cpu_per_generation_floors", "images20_cpu_per_image_floors"):
        assert number(figures, key) > 0, key
    verdicts = {t["key"]: t["verdict"] for t in figures["targets"]}  # type: ignore[union-attr]
    assert verdicts["single_ratio_bodySwap"] == verdicts["burst_cpu_per_generation_P"] == "report"
    # Times and rates are real measurements, not placeholders.
    for key in ("P_ms", "single_e2e_p50_ms_bodySwap", "noop_single_p50_ms", "poll_rps",
                "bare_rps", "noop_generations_per_s", "burst_cpu_per_generation_P",
                "images20_cpu_per_image_P", "longpoll_api_rss_mb", "poll_rps_uncached",
                "floor_single_p50_ms", "floor_cpu_per_workflow_P"):  # fmt: skip
        assert number(figures, key) > 0, key
    # Content Credentials' cost per image, beside encoding (ops/bench/provenance.py).
    provenance = json.loads((sqlite_bench.out.parent / "bench-provenance.json").read_text())
    for kind in ("jpeg", "png"):
        assert number(provenance[kind], "sign_p50_ms") > 0, kind
        assert number(provenance[kind], "bytes_added_median") > 1000, kind
    # End to end includes the engine's work, so it cannot beat the engine alone by much.
    assert number(figures, "single_ratio_bodySwap") > 0.5
    assert number(figures, "single_ratio_burstreplace") > 0.5
    # The engine's CPU is taken out of the imaging worker's, never more than it used.
    assert number(figures, "burst_cpu_imaging_P") >= 0
    assert number(figures, "burst_cpu_engine_P") > 0
    # Correctness under load: nothing failed, rendered twice or charged twice, every change
    # reached its waiting client.
    assert number(figures, "noop_failures") == 0
    assert number(figures, "noop_few_failures") == 0
    assert number(figures, "scale_noop_2x2_failures") == 0
    assert number(figures, "scale_rendered_twice") == 0
    assert number(figures, "scale_doubled_charges") == 0
    assert number(figures, "longpoll_unanswered") == 0
    assert number(figures, "longpoll_errors") == 0
    # Every bench photo was generated end to end with a model the quality gate accepts it
    # with, alone and in the burst (a photo the gate refuses on model-1, a dark skin tone,
    # stopped both sections with QualityTooLow): one model for the light-skinned photos, the
    # dark-skinned one (07966_00) on another.
    pairs = figures["pairs"]
    assert isinstance(pairs, dict)
    photos = [name for name in BENCH_PHOTOS if (FIXTURES / "people" / name).is_file()]
    assert sorted(pairs) == sorted(photos)
    assert len(set(pairs.values())) > 1, pairs
    for key in ("single_pairs_bodySwap", "single_pairs_burstreplace", "burst_pairs"):
        assert number(figures, key) == len(photos), key
    sizes = figures["sizes"]
    assert isinstance(sizes, dict)
    assert number(figures, "longpoll_changes") == sizes["poll_changes"]
    assert number(figures, "longpoll_clients") == sizes["poll_clients"]
    targets = figures["targets"]
    assert isinstance(targets, list)
    assert {t["key"] for t in targets} == {t.key for t in TARGETS}
    assert all(t["verdict"] in ("met", "short", "report") for t in targets)


def test_tiny_bench_on_postgres_beside_sqlite(postgres_bench: BenchRun | None) -> None:
    if postgres_bench is None:
        pytest.skip("PostgreSQL is not reachable")
    runs = postgres_bench.runs()
    assert set(runs) == {"sqlite", "postgres"}
    for figures in runs.values():
        assert number(figures, "noop_generations_per_s") > 0
        assert number(figures, "noop_failures") == 0
        assert number(figures, "noop_few_failures") == 0
        assert number(figures, "longpoll_unanswered") == 0
        assert number(figures, "poll_rps_ratio") > 0
