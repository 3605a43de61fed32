"""FASHN bench's verdicts and table (ops/engine_bench/report.py) on a report shaped as a GPU run
writes it: the branches a CPU run never takes (a known peak, torch's peak memory, targets judged)
checked here, with figures made up for the test, never measured ones."""

from __future__ import annotations

import copy
from typing import Any

from ops.engine_bench.report import NOT_MEASURED, markdown, verdicts


def batch(p50: float, memory: float | None) -> dict[str, Any]:
    """One batch size's figures as fashn.py writes them: 0.78 PFLOP per image on a 989 TFLOP/s
    card."""
    return {"per_image_p50": p50, "per_image_p90": p50 * 1.1, "runs": [p50],
            "first_call_seconds": 3.0, "flops_per_second": 0.78e15 / p50,
            "share_of_peak": 0.78e15 / p50 / 989e12, "peak_memory_gb": memory}


def gpu_report() -> dict[str, Any]:
    reference = {"name": "reference", "what": "30 steps", "group": "keeps the output",
                 "steps": 30, "guided_steps": 29, "model_passes": 59, "status": "measured",
                 "batches": {"1": batch(1.4, 6.1), "4": batch(1.2, 14.5)},
                 "best_batch": 4, "speedup_at_batch_1": 1.0, "speedup_at_best_batch": 1.0,
                 "output_vs_reference": {"mean_abs_diff": 0.0, "psnr_db": None,
                                         "identical": True, "against": "itself"}}
    fp8 = {**copy.deepcopy(reference), "name": "fp8", "group": "faster setting",
           "speedup_at_batch_1": 1.6, "speedup_at_best_batch": 1.7,
           "output_vs_reference": {"mean_abs_diff": 1.9, "psnr_db": 38.2, "identical": False,
                                   "against": "the reference"}}
    skipped = {"name": "cuda-graphs", "group": "keeps the output", "steps": 30,
               "guided_steps": 29, "status": "failed", "reason": "RuntimeError: example"}
    return {"device": "cuda", "device_name": "NVIDIA H100 80GB HBM3", "dtype": "bfloat16",
            "torch": "2.11.0", "label": None, "weights": "random full size",
            "parameters": 971_813_808, "size": [576, 864], "tokens": 6912,
            "forward_flops": 13.2e12, "reference_flops_per_image": 59 * 13.2e12,
            "peak_flops": 989e12, "sampler": [reference, fp8, skipped],
            "whole_call": {"batches": {"1": {"per_image_p50": 2.1, "per_image_p90": 2.3,
                                             "batch_sizes_run": [1, 1],
                                             "peak_memory_gb": 7.0}}}}


def test_the_targets_are_judged_on_a_full_size_bf16_gpu_run() -> None:
    report = gpu_report()
    assert verdicts(report) == {"whole_call_p50_seconds_at_batch_1": "met",
                                "sampler_share_of_peak_at_best_batch": "met",
                                "peak_memory_gb_at_best_batch": "met"}
    report["whole_call"]["batches"]["1"]["per_image_p50"] = 2.6
    report["sampler"][0]["batches"]["4"].update(share_of_peak=0.42, peak_memory_gb=21.0)
    assert set(verdicts(report).values()) == {"short"}


def test_what_cannot_be_judged_is_not_measured_here() -> None:
    for change in ({"device": "cpu"}, {"dtype": "float32"}, {"parameters": 261_000}):
        assert set(verdicts({**gpu_report(), **change}).values()) == {NOT_MEASURED}, change
    report = gpu_report()
    report["whole_call"] = {"error": "ModuleNotFoundError: No module named 'mediapipe'"}
    report["sampler"][0]["batches"]["4"]["share_of_peak"] = None  # an unknown device's peak
    assert verdicts(report) == {"whole_call_p50_seconds_at_batch_1": NOT_MEASURED,
                                "sampler_share_of_peak_at_best_batch": NOT_MEASURED,
                                "peak_memory_gb_at_best_batch": "met"}


def test_the_table_of_a_gpu_run() -> None:
    report = gpu_report()
    report["target_status"] = verdicts(report)
    table = markdown(report)
    assert "CPU" not in table  # no label on a GPU's figures
    assert "Dense bf16 peak: 989 TFLOP/s" in table
    assert ("| reference | keeps the output | 30 (29 guided) | 1.400 s / 1.540 s | 4: 1.200 s | "
            "650.0 TFLOP/s, 65.7 % of the dense bf16 peak | 14.5 GB | 1.0x / 1.0x | 0.00 | "
            "identical |") in table
    assert "| fp8 | faster setting |" in table and "| 1.6x / 1.7x | 1.90 | 38.2 dB |" in table
    assert "| cuda-graphs | keeps the output | 30 (29 guided) | failed: RuntimeError" in table
    assert "| 1 | 2.100 s / 2.300 s | [1, 1] | 7.0 GB |" in table
    assert "- whole_call_p50_seconds_at_batch_1 2.5: met" in table
