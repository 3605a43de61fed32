"""FASHN's bench report: issue 35 section 4's targets judged, printed, and written as markdown."""

from __future__ import annotations

from typing import Any

from ops.engine_bench.build import FULL_SIZE_PARAMETERS
from ops.engine_bench.peaks import describe

CPU_LABEL = "CPU, not a GPU figure"
NOT_MEASURED = "not measured here"
# Issue 35 section 4: one H100, the whole engine call, reference settings (30 steps, guidance
# 1.5, bf16).
TARGETS: dict[str, Any] = {
    "whole_call_p50_seconds_at_batch_1": 2.5,
    "sampler_share_of_peak_at_best_batch": 0.5,
    "peak_memory_gb_at_best_batch": 20.0,
    "conditions": "one H100, bf16, 30 steps, guidance 1.5 (the reference settings)",
}


def verdicts(report: dict[str, Any]) -> dict[str, str]:
    """Each target "met" or "short"; "not measured here" off a CUDA device, off bf16, on models
    under full size, or where the figure is missing (e.g. the whole call could not run)."""
    names = [name for name in TARGETS if name != "conditions"]
    if (not report["device"].startswith("cuda") or report["dtype"] != "bfloat16"
            or report["parameters"] < FULL_SIZE_PARAMETERS):
        return dict.fromkeys(names, NOT_MEASURED)
    status = dict.fromkeys(names, NOT_MEASURED)
    whole = report["whole_call"].get("batches", {}).get("1")
    if whole is not None:
        status["whole_call_p50_seconds_at_batch_1"] = (
            "met" if whole["per_image_p50"] <= TARGETS["whole_call_p50_seconds_at_batch_1"]
            else "short")
    reference = report["sampler"][0]
    if reference.get("status") == "measured":
        best = reference["batches"][str(reference["best_batch"])]
        if best["share_of_peak"] is not None:
            status["sampler_share_of_peak_at_best_batch"] = (
                "met" if best["share_of_peak"] >= TARGETS["sampler_share_of_peak_at_best_batch"]
                else "short")
        if best["peak_memory_gb"] is not None:
            status["peak_memory_gb_at_best_batch"] = (
                "met" if best["peak_memory_gb"] <= TARGETS["peak_memory_gb_at_best_batch"]
                else "short")
    return status


def _seconds(value: float | None, label: str | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f} s" + (f" ({label})" if label else "")


def _distance(result: dict[str, Any]) -> tuple[str, str]:
    moved = result.get("output_vs_reference")
    if moved is None:
        return "-", "-"
    psnr = "identical" if moved["identical"] else f"{moved['psnr_db']:.1f} dB"
    return f"{moved['mean_abs_diff']:.2f}", psnr


def setting_rows(report: dict[str, Any]) -> list[list[str]]:
    label = report["label"]
    rows = []
    for result in report["sampler"]:
        steps = f"{result['steps']} ({result['guided_steps']} guided)"
        if result["status"] != "measured":
            rows.append([result["name"], result["group"], steps, f"{result['status']}: "
                         f"{result['reason']}", "-", "-", "-", "-", "-", "-"])
            continue
        one = result["batches"].get("1")
        best = result["batches"][str(result["best_batch"])]
        share = describe(best["flops_per_second"], best["share_of_peak"])
        memory = "-" if best["peak_memory_gb"] is None else f"{best['peak_memory_gb']:.1f} GB"
        mad, psnr = _distance(result)
        speed = f"{result.get('speedup_at_batch_1') or '-'}x / {result['speedup_at_best_batch']}x"
        rows.append([
            result["name"], result["group"], steps,
            "-" if one is None else f"{_seconds(one['per_image_p50'], label)} / "
                                    f"{_seconds(one['per_image_p90'], None)}",
            f"{result['best_batch']}: {_seconds(best['per_image_p50'], label)}",
            share, memory, speed, mad, psnr])
    return rows


SETTING_HEADER = ["Setting", "Group", "Steps", "p50 / p90 per image at batch 1",
                  "Best batch: p50 per image", "Sampler FLOP/s at best batch",
                  "Peak memory at best batch", "Speed-up vs reference (batch 1 / best)",
                  "MAD vs reference (0-255)", "PSNR vs reference"]


def markdown(report: dict[str, Any]) -> str:
    peak = ("unknown for this device" if report["peak_flops"] is None
            else f"{report['peak_flops'] / 1e12:.0f} TFLOP/s")
    lines = [f"# FASHN engine bench: {report['device_name']} ({report['device']}, "
             f"{report['dtype']}), torch {report['torch']}", ""]
    if report["label"]:
        lines += [f"**{report['label']}**: every timing below is a CPU timing of GPU code.", ""]
    lines += [f"Weights: {report['weights']} ({report['parameters'] / 1e6:.3g} M parameters). "
              f"Native {report['size'][0]}x{report['size'][1]}, {report['tokens']} tokens; "
              f"{report['forward_flops'] / 1e12:.3g} TFLOP per forward pass, "
              f"{report['reference_flops_per_image'] / 1e12:.4g} TFLOP per image at the "
              f"reference settings. Dense bf16 peak: {peak}.",
              "", "## Sampler (TryOnRunner.run), setting by setting", "",
              "| " + " | ".join(SETTING_HEADER) + " |",
              "|" + "---|" * len(SETTING_HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in setting_rows(report)]
    lines += ["", "## Whole engine call (body_swap, reference settings)", ""]
    whole = report["whole_call"]
    if "error" in whole:
        lines.append(f"Not measured: {whole['error']}")
    else:
        lines += ["| Calls at once | p50 / p90 per image | Batches the sampler ran | Peak memory |",
                  "|---|---|---|---|"]
        for batch, figures in whole["batches"].items():
            memory = ("-" if figures["peak_memory_gb"] is None
                      else f"{figures['peak_memory_gb']:.1f} GB")
            lines.append(f"| {batch} | {_seconds(figures['per_image_p50'], report['label'])} / "
                         f"{_seconds(figures['per_image_p90'], None)} | "
                         f"{figures['batch_sizes_run']} | {memory} |")
    lines += ["", f"## Targets ({TARGETS['conditions']})", ""]
    for name, verdict in report["target_status"].items():
        lines.append(f"- {name} {TARGETS[name]}: {verdict}")
    return "\n".join(lines) + "\n"


def print_report(report: dict[str, Any]) -> None:
    print(markdown(report))


__all__ = ["CPU_LABEL", "NOT_MEASURED", "TARGETS", "markdown", "print_report", "verdicts"]
