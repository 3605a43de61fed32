"""The generative engine's bench (ops/engine_bench) runs end to end on the tiny set in the imaging
environment and writes every figure: checked for presence and sanity, never a speed. FASHN's (the
default, issue 35 section 4) labels its CPU timings "CPU, not a GPU figure"; issue 21's SD1.5
bench (`--tryon catvton`) labels them "CPU timing of GPU code"."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.integration.test_weights import IMAGING_PYTHON, require_imaging
from tests.support.paths import FIXTURES, REPO, fixture_images


@dataclass
class Run:
    """A bench started in the background; its output goes to files (a full pipe would stop it)."""

    process: subprocess.Popen[bytes]
    out: Path
    folder: Path

    def wait(self, timeout: float = 300) -> tuple[int, str, str]:
        """Its exit code, stdout and stderr once it has ended (killed past `timeout`)."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"the bench ran over {timeout:.0f} s")
        return (code, (self.folder / "stdout").read_text(errors="replace"),
                (self.folder / "stderr").read_text(errors="replace"))


def start(folder: Path, args: list[str], env: dict[str, str]) -> Run:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "stdout").open("wb") as stdout, (folder / "stderr").open("wb") as stderr:
        process = subprocess.Popen([str(IMAGING_PYTHON), "-m", "ops.engine_bench", *args],
                                   cwd=REPO, stdout=stdout, stderr=stderr,
                                   env={**os.environ, **env})
    return Run(process, folder / "bench.json", folder)


@pytest.fixture(scope="module")
def background_runs(tmp_path_factory: pytest.TempPathFactory,
                    tiny_weights: Path) -> Iterator[dict[str, Run]]:
    """FASHN's bench and the two benches without fixture photos (the 'says why' tests),
    started as the module starts (pytestmark) so that they run beside the first test's bench:
    each is largely a Python process importing torch and building the tiny models, one core's
    work (FASHN's runs on one OpenMP thread) on a machine of two. Their tests wait for them and
    assert as before; no figure's speed is asserted."""
    require_imaging()
    root = tmp_path_factory.mktemp("engine-bench")
    empty = root / "no-photos"
    empty.mkdir()
    runs = {
        "fashn-photos": start(root / "fashn-photos", [
            "--weights", str(tiny_weights), "--size", "48x64", "--latency-runs", "2",
            "--repeats", "1", "--out", str(root / "fashn-photos" / "bench.json"),
            "--batches", "1,2", "--other-batches", "1",
            "--settings", "steps-15,guidance-every-2,sdpa-math,fp8,cuda-graphs"],
            {"FIXTURES_DIR": str(FIXTURES), "OMP_NUM_THREADS": "1"}),
        "catvton": start(root / "catvton", [
            "--tryon", "catvton", "--weights", str(tiny_weights), "--size", "48x64", "--steps",
            "2", "--batches", "1", "--repeats", "1", "--latency-runs", "1",
            "--out", str(root / "catvton" / "bench.json")], {"FIXTURES_DIR": str(empty)}),
        "fashn": start(root / "fashn", [
            "--weights", str(tiny_weights), "--size", "48x64", "--latency-runs", "2",
            "--repeats", "1", "--out", str(root / "fashn" / "bench.json"), "--batches", "1",
            "--settings", "reference"], {"FIXTURES_DIR": str(empty), "OMP_NUM_THREADS": "1"}),
    }
    try:
        yield runs
    finally:
        for run in runs.values():
            if run.process.poll() is None:
                run.process.kill()
                run.process.wait()


pytestmark = pytest.mark.usefixtures("background_runs")



def test_the_engine_bench_writes_every_figure(tmp_path: Path, tiny_weights: Path) -> None:
    require_imaging()
    fixture_images("scenes")  # the end-to-end calls read fixture photos (skips without)
    weights = tiny_weights  # built, and its build checked, once (tests/integration/conftest.py)
    out = tmp_path / "bench.json"
    done = subprocess.run(
        [str(IMAGING_PYTHON), "-m", "ops.engine_bench", "--tryon", "catvton", "--engine",
         "diffusion", "--weights", str(weights), "--size", "48x64", "--steps", "3",
         "--batches", "1,2", "--repeats", "2", "--latency-runs", "3", "--out", str(out)],
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
    background_runs: dict[str, Run]
) -> None:
    """On a bare GPU box the fixture photos or the analysis's packages may be missing: the
    denoising figures still come, and the report names what stopped the whole calls."""
    run = background_runs["catvton"]  # --steps 2, batch 1, one repeat and one latency run
    code, stdout, stderr = run.wait()
    assert code == 0, stderr[-3000:]
    report = json.loads(run.out.read_text("utf-8"))
    for operation, figures in report["operations"].items():
        assert figures["end_to_end_seconds"] is None, operation
        assert "No such file" in figures["end_to_end_error"], figures["end_to_end_error"]
        assert figures["latency_seconds"]["p50"] > 0, operation
    assert "not measured (FileNotFoundError" in stdout


def test_the_fashn_bench_writes_every_figure(background_runs: dict[str, Run]) -> None:
    fixture_images("garments")  # the whole calls read fixture photos (skips without)
    run = background_runs["fashn-photos"]  # FASHN's bench (the default), one OpenMP thread
    code, stdout, stderr = run.wait()
    assert code == 0, stderr[-3000:]
    out = run.out
    assert "CPU, not a GPU figure" in stdout and "needs a CUDA device" in stdout

    report = json.loads(out.read_text("utf-8"))
    assert report["tryon"] == "fashn" and report["device"] == "cpu"
    assert report["dtype"] == "float32" and report["label"] == "CPU, not a GPU figure"
    assert report["peak_flops"] is None  # a CPU has no entry in the table of GPU peaks
    one_pass = report["forward_flops"]
    assert report["reference_flops_per_image"] == 59 * one_pass
    results = {result["name"]: result for result in report["sampler"]}
    assert list(results) == ["reference", "steps-15", "guidance-every-2", "sdpa-math", "fp8",
                             "cuda-graphs"]
    for name in ("fp8", "cuda-graphs"):  # never faked on a CPU
        assert results[name]["status"] == "needs a CUDA device", results[name]
        assert "batches" not in results[name]
    passes = {"reference": 59, "steps-15": 29, "guidance-every-2": 45, "sdpa-math": 59}
    for name, count in passes.items():
        result = results[name]
        assert result["status"] == "measured", result
        assert result["model_passes"] == count
        assert result["flops_per_image"] == count * one_pass
        assert set(result["batches"]) == ({"1", "2"} if name == "reference" else {"1"})
        for figures in result["batches"].values():
            assert 0 < figures["per_image_p50"] <= figures["per_image_p90"]
            assert figures["flops_per_second"] > 0 and figures["share_of_peak"] is None
            assert figures["peak_memory_gb"] is None  # torch's peak is a CUDA figure
        assert result["speedup_at_batch_1"] > 0 and result["speedup_at_best_batch"] > 0
    # Same weights, inputs and seed: the reference is itself; fewer steps move the image; the
    # math kernel does the same arithmetic (rounding only).
    assert results["reference"]["output_vs_reference"] == {
        "mean_abs_diff": 0.0, "psnr_db": None, "identical": True, "against": "itself"}
    assert results["steps-15"]["output_vs_reference"]["against"] == "the reference"
    moved = results["steps-15"]["output_vs_reference"]
    assert moved["mean_abs_diff"] > 0 and moved["psnr_db"] is not None
    assert results["sdpa-math"]["output_vs_reference"]["mean_abs_diff"] < 1.0

    whole = report["whole_call"]
    assert "error" not in whole, whole.get("error")
    assert set(whole["batches"]) == {"1"}
    figures = whole["batches"]["1"]
    assert 0 < figures["per_image_p50"] <= figures["per_image_p90"]
    assert figures["batch_sizes_run"] == [1, 1]  # two timed calls, each its own batch
    assert set(report["target_status"].values()) == {"not measured here"}
    table = out.with_suffix(".md").read_text("utf-8")
    assert "CPU, not a GPU figure" in table and "| reference |" in table


def test_the_fashn_bench_says_why_a_whole_call_was_not_measured(
    background_runs: dict[str, Run]
) -> None:
    run = background_runs["fashn"]  # as "fashn-photos", with --batches 1 --settings reference
    code, stdout, stderr = run.wait()
    assert code == 0, stderr[-3000:]
    report = json.loads(run.out.read_text("utf-8"))
    assert "No such file" in report["whole_call"]["error"]
    assert "Not measured: FileNotFoundError" in stdout
    assert report["sampler"][0]["batches"]["1"]["per_image_p50"] > 0
