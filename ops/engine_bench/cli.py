"""FASHN's engine bench (issue 35 section 4).

    python -m ops.engine_bench --weights DIR | --random-full [--random-full-dir DIR] | --tiny-config
        [--batches 1,2,4,8] [--latency-runs 10] [--repeats 3] [--settings NAME,...|all]
        [--no-end-to-end] [--batch-window 1.0] [--compile-limit 600] [--device auto]
        [--dtype auto] [--out out/engine_bench.json] [--markdown out/engine_bench.md]
    python -m ops.engine_bench --tryon catvton ...   # issue 21's SD1.5 bench (sd15.py)

Run it with the imaging environment's Python. It prints and writes (JSON, and a markdown table):
- the sampler (TryOnRunner.run: the GPU thread's share of a try-on) per setting: p50/p90 per
  image at batch 1 and at each batch size, the first call's time (kernel choice; the compile
  time for the compiled settings, judged against --compile-limit), the sampler's FLOPs
  (engine/diffusion/fashn/flops.py) and the FLOP/s reached with its share of the device's dense
  bf16 peak (peaks.py; an unknown device gets the FLOP/s only), the peak memory
  (torch.cuda.max_memory_allocated), the speed-up over the reference and how far the image moves
  from the reference's (mean absolute difference and PSNR, same weights, inputs and seed).
  Settings: settings.py (reference, SDPA backends, compile, CUDA graphs, FP8, fewer steps,
  guidance skipped on some steps); one a device cannot run says so ("needs a CUDA device");
- the whole engine call (whole.py: body_swap on fixture photos at the reference settings) at
  batch 1 and with several calls at once, where the imaging environment and the photos are there;
- issue 35's targets against the figures (only on a CUDA device, bf16, full-size weights).
--random-full builds full-size random weights (build.py) in a temporary folder, or once in
--random-full-dir; --tiny-config builds the tiny set. Every timing off a GPU is labelled
"CPU, not a GPU figure"; nothing here estimates a GPU figure.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ops.engine_bench.common import REPO

TRYONS = ("fashn", "catvton")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m ops.engine_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tryon", choices=TRYONS, default="fashn")
    parser.add_argument("--engine", choices=["diffusion"], default="diffusion")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--weights", type=Path, help="a weights folder (ENGINE_WEIGHTS_DIR)")
    source.add_argument("--random-full", action="store_true",
                        help="full-size random FASHN weights, in a temporary folder")
    source.add_argument("--random-full-dir", type=Path,
                        help="as --random-full, built in this folder once and reused after")
    source.add_argument("--tiny-config", action="store_true",
                        help="ops.weights' tiny set, built in a temporary folder")
    parser.add_argument("--batches", default="1,2,4,8",
                        help="the reference's batch sizes, comma-separated")
    parser.add_argument("--other-batches",
                        help="the other settings' and the whole call's batch sizes (default: "
                             "--batches; fewer keep a GPU session short)")
    parser.add_argument("--latency-runs", type=int, default=10,
                        help="timed runs at batch 1 (p50 and p90)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per larger batch")
    parser.add_argument("--settings", default="",
                        help="comma-separated names or 'all' (default: all on a GPU, a CPU's "
                             "set on a CPU; settings.py)")
    parser.add_argument("--no-end-to-end", action="store_true",
                        help="skip the whole engine calls")
    parser.add_argument("--size", default="768x1024",
                        help="the engine's working size WIDTHxHEIGHT (the relight's, warmed up at "
                             "start; FASHN samples at its native size whatever this is)")
    parser.add_argument("--batch-window", type=float, default=1.0,
                        help="how long the batcher waits for B whole calls at once (seconds; "
                             "batch 1 keeps the product's window)")
    parser.add_argument("--compile-limit", type=float, default=600.0,
                        help="the compile-time bound (seconds) the compiled settings are judged by")
    parser.add_argument("--device", default="auto")
    parser.add_argument("--dtype", default="auto")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "engine_bench.json")
    parser.add_argument("--markdown", type=Path, help="default: --out with .md")
    args = parser.parse_args(argv)
    width, _, height = args.size.lower().partition("x")
    args.size = (int(width), int(height))
    args.batches = sorted({int(b) for b in args.batches.split(",") if b.strip()})
    args.other_batches = (args.batches if not args.other_batches else
                          sorted({int(b) for b in args.other_batches.split(",") if b.strip()}))
    if (not args.batches or not args.other_batches
            or min(args.batches + args.other_batches) < 1 or args.repeats < 1
            or args.latency_runs < 1):
        parser.error("batches, repeats and latency runs must be positive")
    return args


def device_name(device: str) -> str:
    import torch

    if device.startswith("cuda"):
        return str(torch.cuda.get_device_name(torch.device(device)))
    return f"CPU ({platform.processor() or platform.machine()}, {torch.get_num_threads()} threads)"


def bench(args: argparse.Namespace, weights: Path, label: str) -> dict[str, Any]:
    import torch

    from engine.diffusion.fashn.flops import forward_flops
    from engine.diffusion.weights import FASHN_WEIGHTS
    from ops.engine_bench import report
    from ops.engine_bench.fashn import bench_sampler, pick
    from ops.engine_bench.peaks import dense_bf16_peak
    from ops.engine_bench.settings import BY_NAME
    from ops.engine_bench.settings import pick as pick_settings
    from ops.engine_bench.whole import whole_calls

    torch_device, torch_dtype = pick(args.device, args.dtype)
    on_cuda = torch_device.type == "cuda"
    name = device_name(str(torch_device))
    peak = dense_bf16_peak(name) if on_cuda else None
    settings = pick_settings(args.settings, on_cuda)
    def partial(results: list[dict[str, Any]]) -> None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"partial": True, "device_name": name,
                                        "sampler": results}, indent=2) + "\n", "utf-8")

    base, sampler = bench_sampler(weights / FASHN_WEIGHTS, args.device, args.dtype, settings,
                                  (args.batches, args.other_batches), args.latency_runs,
                                  args.repeats, peak, args.compile_limit, partial)
    config = base.model.config
    parameters = sum(p.numel() for p in base.model.parameters())
    del base
    if on_cuda:
        torch.cuda.empty_cache()
    whole: dict[str, Any] = {"error": "not asked for (--no-end-to-end)"}
    if not args.no_end_to_end:
        print("whole engine call (body_swap, reference settings)", flush=True)
        whole = whole_calls(weights, args.size, args.device, args.dtype, args.other_batches,
                            args.latency_runs, args.repeats, args.batch_window)
    result: dict[str, Any] = {
        "engine": "diffusion", "tryon": "fashn", "weights": label,
        "device": str(torch_device), "device_name": name,
        "dtype": str(torch_dtype).removeprefix("torch."), "torch": torch.__version__,
        "label": None if on_cuda else report.CPU_LABEL,
        "parameters": parameters, "size": [config.width, config.height],
        "tokens": 2 * config.tokens_per_image, "forward_flops": forward_flops(config),
        "reference_flops_per_image": BY_NAME["reference"].flops_per_image(config),
        "peak_flops": peak, "batches": args.batches, "other_batches": args.other_batches,
        "latency_runs": args.latency_runs,
        "repeats": args.repeats, "compile_limit_seconds": args.compile_limit,
        "sampler": sampler, "whole_call": whole,
    }
    result["targets"] = report.TARGETS
    result["target_status"] = report.verdicts(result)
    return result


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # --tryon catvton: issue 21's bench of the SD1.5 models, with its own options.
    if "--tryon" in argv and argv[argv.index("--tryon") + 1:][:1] == ["catvton"]:
        from ops.engine_bench import sd15

        index = argv.index("--tryon")
        return sd15.main(argv[:index] + argv[index + 2:])
    args = parse_args(argv)
    from ops.engine_bench.report import markdown

    with tempfile.TemporaryDirectory(prefix="engine-bench-") as scratch:
        weights, label = args.weights, str(args.weights)
        if args.random_full_dir or args.random_full:
            from ops.engine_bench.build import build_fashn_full

            weights = args.random_full_dir or Path(scratch) / "weights"
            label = "full-size random FASHN try-on (built earlier in this folder)"
            if not (weights / "fashn").is_dir():
                label = build_fashn_full(weights)
        elif args.tiny_config:
            from ops.weights import build_tiny

            weights, label = Path(scratch) / "weights", "tiny random set (temporary)"
            started = time.perf_counter()
            build_tiny(weights)
            print(f"built {label} in {time.perf_counter() - started:.1f} s", flush=True)
        result = bench(args, weights, label)

    text = markdown(result)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    table = args.markdown or args.out.with_suffix(".md")
    table.write_text(text, "utf-8")
    print(f"written to {args.out} and {table}")
    return 0


__all__ = ["main", "parse_args"]
