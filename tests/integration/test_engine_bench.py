"""The generative engine's bench (ops/engine_bench.py, issue 21) runs end to end on the tiny set in
the imaging environment and writes every figure: checked for presence and sanity, never a speed
(on the CPU its figures are labelled "CPU timing of GPU code")."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.integration.test_weights import IMAGING_PYTHON, require_imaging
from tests.support.paths import FIXTURES, REPO, fixture_images


def test_the_engine_bench_writes_every_figure(tmp_path: Path, tiny_weights: Path) -> None:
    require_imaging()
    fixture_images("scenes")  # the end-to-end calls read fixture photos (skips without)
    weights = tiny_weights  # built, and its build checked, once (tests/integration/conftest.py)
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [str(IMAGING_PYTHON), "-m", "ops.engine_bench", "--engine", "diffusion",
         "--weights", str(weights), "--size", "48x64", "--steps", "3", "--batches", "1,2",
         "--repeats", "2", "--latency-runs", "3", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "FIXTURES_DIR": str(FIXTURES)})
    assert done.returncode == 0, done.stderr[-3000:]
    assert "CPU timing of GPU code" in done.stdout
    assert "not measured here" in done.stdout

    report = json.loads(out.read_text("utf-8"))
    assert report["device"] == "cpu" and report["dtype"] == "float32"
    assert report["label"] == "CPU timing of GPU code"
    assert report["steps"] == 3 and report["size"] == [48, 64]
    assert report["peak_memory_bytes"] > 0 and report["peak_memory_gb"] > 0
    assert set(report["operations"]) == {"tryon", "relight"}
    for operation, figures in report["operations"].items():
        latency = figures["latency_seconds"]
        assert 0 < latency["p50"] <= latency["p95"], operation
        assert len(latency["runs"]) == 3 and all(run > 0 for run in latency["runs"])
        assert figures["end_to_end_seconds"] > 0, operation
        assert set(figures["images_per_minute"]) == {"1", "2"}, operation
        assert all(rate > 0 for rate in figures["images_per_minute"].values()), operation
        peaks = figures["peak_memory_gb_by_batch"]
        assert set(peaks) == {"1", "2"} and all(0 < peak <= report["peak_memory_gb"]
                                                  for peak in peaks.values()), operation
    assert report["latency_runs"] == 3 and report["compile"] is False
    assert report["targets"]["tryon_p50_seconds"] == 3.0
    assert report["targets"]["images_per_minute_at_batch_4_or_more"] == 40.0
    assert report["targets"]["peak_memory_gb"] == 24.0
    assert set(report["target_status"].values()) == {"not measured here"}



def test_the_engine_bench_says_why_a_whole_call_was_not_measured(
    tmp_path: Path, tiny_weights: Path
) -> None:
    """On a bare GPU box the fixture photos or the analysis's packages may be missing: the
    denoising figures still come, and the report names what stopped the whole calls."""
    require_imaging()
    weights = tiny_weights  # built, and its build checked, once (tests/integration/conftest.py)
    out = tmp_path / "bench.json"
    empty = tmp_path / "no-photos"
    empty.mkdir()
    done = subprocess.run(
        [str(IMAGING_PYTHON), "-m", "ops.engine_bench", "--weights", str(weights),
         "--size", "48x64", "--steps", "2", "--batches", "1", "--repeats", "1",
         "--latency-runs", "1", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={**os.environ, "FIXTURES_DIR": str(empty)})
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(out.read_text("utf-8"))
    for operation, figures in report["operations"].items():
        assert figures["end_to_end_seconds"] is None, operation
        assert "No such file" in figures["end_to_end_error"], figures["end_to_end_error"]
        assert figures["latency_seconds"]["p50"] > 0, operation
    assert "not measured (FileNotFoundError" in done.stdout
