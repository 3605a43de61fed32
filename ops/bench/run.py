"""`make bench`: the figures of issue 11, each beside its target, "met" or "short", all written
to out/bench.json.

    python -m ops.bench                      # everything, SQLite
    python -m ops.bench --db both            # SQLite, PostgreSQL side by side (POSTGRES=1)
    python -m ops.bench --only polls,capacity --duration 20
    python -m ops.bench --tiny               # a few generations, a few seconds (the smoke test)

CPU is divided by P, one Pillow decode + encode of a 768x1024 JPEG on one core, timed in the
same run (absolute milliseconds differ 2x between machines). Sections:
- singles: one generation at a time, end to end (submit until pollTasks says completed, long
  polling as the web app does), alternating with the engine alone in this process, for
  background replace and model swap;
- burst: 50 generations at once with the CPU engine; control-plane CPU per generation = API +
  Temporal + orchestration worker + storage + the imaging worker's CPU outside the engine
  (from /proc; the engine's share is metered inside the bench's imaging worker);
- images20: one request with 20 images, control-plane CPU per image;
- capacity: the bench's no-op engine (returns its input), generations/s sustained for
  --duration seconds, failures, p95 submit->completed / the no-op single p50;
- polls: 1,000 clients long-polling pollTasks at once (delay from a task's change to its
  answer, API memory), and pollTasks requests/s / a bare FastAPI endpoint's (64 connections);
- scale: the same with 2 orchestration and 2 imaging workers, CPU and no-op engine, counting
  images rendered twice and generations charged twice;
- floor: Temporal alone (ops.bench.floor): a workflow whose one step is an activity in another
  process that returns at once, on the same Temporal server; its start->result p50 and the CPU
  per workflow of the server and the two workers: what no change of ours can go below;
- engine: the engine's own one-core figures (ops.bench.engine).
The machine is shared and has two cores: run twice before believing a difference.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.settings import Settings
from ops.bench.capacity import single_p50, sustained
from ops.bench.e2e import EngineOnly, burst, many_images, singles
from ops.bench.floor import floor
from ops.bench.polls import long_polls, requests_per_second
from ops.bench.stack import BenchStack, postgres_database
from ops.bench.support import (
    BENCH_PHOTOS,
    Pair,
    Upload,
    accepted_pairs,
    pillow_unit,
    raise_open_files_limit,
)
from ops.bench.targets import TARGETS
from ops.seed import fixtures_dir
from ops.stack import REPO
from ops.worker import build_engine

# Figure name -> value (numbers, and the targets table under "targets").
Figures = dict[str, Any]

# The second, lighter load of the capacity section (see noop_section).
FEW_CLIENTS = 2

SECTIONS = ("singles", "burst", "images20", "capacity", "polls", "scale", "floor", "engine",
            "provenance")


@dataclass(frozen=True)
class Sizes:
    singles: int = 20
    burst: int = 50
    images: int = 20
    duration: float = 60.0
    concurrency: int = 8
    poll_clients: int = 1000
    poll_changes: int = 200
    rps_seconds: float = 5.0
    scale_seconds: float = 20.0

    @staticmethod
    def tiny() -> Sizes:
        return Sizes(
            singles=2, burst=5, images=3, duration=3.0, concurrency=2, poll_clients=20,
            poll_changes=5, rps_seconds=1.0, scale_seconds=3.0,
        )  # fmt: skip


def add(figures: Figures, key: str, value: float) -> None:
    """Counts summed over the CPU-engine and the no-op runs (scale out)."""
    figures[key] = float(figures.get(key, 0.0)) + value


def upload_pairs(stack: BenchStack, pairs: list[Pair], count: int) -> list[Upload]:
    """`count` uploads, the pairs' photos in rotation, each with its pair's model."""
    client = stack.guest()
    uploads = [
        Upload(client.upload(pair.photo.read_bytes()), pair.model_id)
        for pair in (pairs[i % len(pairs)] for i in range(count))
    ]
    client.close()
    return uploads


def cpu_section(
    figures: Figures, data: Path, database_url: str | None, sections: set[str],
    sizes: Sizes, pairs: list[Pair], yardstick: EngineOnly | None,
) -> None:  # fmt: skip
    """Everything measured with the CPU engine, on one stack, each photo swapped to a model the
    quality gate accepts it with (a refused pair fails its generation). Figures named *_P are
    CPU seconds here; run_once divides them by P at the end."""
    credits = 4 * (sizes.singles + 1) + 3 * sizes.burst + sizes.images + 20
    with BenchStack(data / "cpu", "cpu", database_url, credits) as stack:
        stack.start()
        uploads = upload_pairs(stack, pairs, len(pairs))
        if "singles" in sections and yardstick is not None:
            for service, row in singles(stack, yardstick, uploads, sizes.singles).items():
                figures[f"single_pairs_{service}"] = row["pairs"]
                figures[f"single_engine_p50_ms_{service}"] = row["engine_p50_ms"]
                figures[f"single_e2e_p50_ms_{service}"] = row["e2e_p50_ms"]
                figures[f"single_ratio_{service}"] = row["ratio"]
                # What a ratio of 1.2 leaves for everything but the engine.
                figures[f"single_allowed_ms_{service}"] = 0.2 * row["engine_p50_ms"]
        if "burst" in sections or "scale" in sections:
            result = burst(stack, uploads, sizes.burst)
            figures["burst_generations_per_s"] = result["generations_per_s"]
            figures["burst_pairs"] = result["pairs"]
            figures["burst_cpu_per_generation_P"] = result["cpu_control plane"]
            for role in ("api", "temporal", "worker", "storage", "imaging", "engine"):
                figures[f"burst_cpu_{role}_P"] = result[f"cpu_{role}"]
            figures["scale_cpu_1x1_generations_per_s"] = result["generations_per_s"]
            print(
                f"  burst of {sizes.burst}: {result['generations_per_s']:.2f} generations/s, "
                f"control plane {result['cpu_control plane'] * 1000:.0f} ms CPU per generation",
                flush=True,
            )
        if "images20" in sections:
            # One request takes one model: the photos the first pair's model accepts.
            same_model = [p for p in pairs if p.model == pairs[0].model]
            result = many_images(stack, upload_pairs(stack, same_model, sizes.images), sizes.images)
            figures["images20_cpu_per_image_P"] = result["cpu_control plane"]
            for role in ("api", "temporal", "worker", "storage", "imaging"):
                figures[f"images20_cpu_{role}_P"] = result[f"cpu_{role}"]
            print(f"  {sizes.images}-image request: {result['seconds']:.1f} s", flush=True)
        if "scale" in sections:
            stack.add_worker()
            stack.add_imaging()
            stack.wait_imaging_ready(2)
            result = burst(stack, uploads, sizes.burst)
            figures["scale_cpu_2x2_generations_per_s"] = result["generations_per_s"]
            twice = max(0.0, result["engine_calls"] - result["generations"])
            add(figures, "scale_rendered_twice", twice)
            add(figures, "scale_doubled_charges", stack.doubled_charges())
            print(
                f"  CPU engine, 2 orchestration + 2 imaging workers: "
                f"{result['generations_per_s']:.2f} generations/s",
                flush=True,
            )


def noop_section(
    figures: Figures, data: Path, database_url: str | None, sections: set[str],
    sizes: Sizes, pairs: list[Pair],
) -> None:  # fmt: skip
    """Everything measured with the no-op engine, on one stack (the same photo and model pairs
    as the CPU engine's: a submit may check the pair before any engine runs)."""
    # A generous balance: a sustained minute can be thousands of generations.
    with BenchStack(data / "noop", "noop", database_url, 1_000_000) as stack:
        stack.start()
        uploads = upload_pairs(stack, pairs, len(pairs))
        if "polls" in sections:
            lp = long_polls(stack, sizes.poll_clients, sizes.poll_changes)
            for name, value in lp.items():
                figures[f"longpoll_{name}"] = value
            rps = requests_per_second(stack, sizes.rps_seconds)
            figures["poll_rps"] = rps["poll_rps"]
            figures["bare_rps"] = rps["bare_rps"]
            figures["poll_rps_ratio"] = rps["ratio"]
            figures["poll_rps_otel_none"] = rps.get("poll_rps_otel_none", float("nan"))
            figures["poll_rps_uncached"] = rps.get("poll_rps_uncached", float("nan"))
            print(
                f"  long polls: p95 {lp['delay_p95_ms']:.0f} ms, API {lp['api_rss_mb']:.0f} MB; "
                f"pollTasks {rps['poll_rps']:.0f}/s ({rps.get('poll_rps_uncached', 0):.0f}/s "
                f"uncached), bare {rps['bare_rps']:.0f}/s",
                flush=True,
            )
        if "floor" in sections:
            result = floor(stack, sizes.singles, sizes.burst)
            figures["floor_single_p50_ms"] = result["single_p50_ms"]
            figures["floor_in_process_single_p50_ms"] = result["in_process_single_p50_ms"]
            for role in ("temporal", "workflow_worker", "activity_worker"):
                figures[f"floor_cpu_{role}_P"] = result[f"cpu_{role}"]
            figures["floor_cpu_per_workflow_P"] = sum(
                result[f"cpu_{role}"] for role in ("temporal", "workflow_worker", "activity_worker")
            )
            print(
                f"  floor (Temporal alone): start->result p50 {result['single_p50_ms']:.1f} ms "
                f"({result['in_process_single_p50_ms']:.1f} ms with the workers in-process), "
                f"CPU per workflow: server {result['cpu_temporal'] * 1000:.1f} ms, workers "
                f"{(result['cpu_workflow_worker'] + result['cpu_activity_worker']) * 1000:.1f} ms",
                flush=True,
            )
        if "capacity" in sections or "scale" in sections:
            single = single_p50(stack, uploads, sizes.singles)
            result = sustained(stack, uploads, sizes.duration, sizes.concurrency)
            figures["noop_single_p50_ms"] = single * 1000
            figures["noop_generations_per_s"] = result["generations_per_s"]
            figures["noop_failures"] = result["failures"]
            figures["noop_p95_ms"] = result["p95_s"] * 1000
            figures["noop_p95_over_single_p50"] = result["p95_s"] / single
            figures["noop_concurrency"] = sizes.concurrency
            figures["noop_cpu_per_generation_P"] = (
                result["cpu_control_plane_per_generation_s"]
            )
            figures["scale_noop_1x1_generations_per_s"] = result["generations_per_s"]
            print(
                f"  no-op engine: {result['generations_per_s']:.1f} generations/s for "
                f"{sizes.duration:.0f} s, {result['failures']} failures, "
                f"p95 {result['p95_s'] * 1000:.0f} ms (single p50 {single * 1000:.0f} ms)",
                flush=True,
            )
            # Clients that submit back to back queue behind each other once the stack is busy:
            # with `concurrency` of them the mean latency is concurrency / throughput (Little's
            # law), whatever the stack does. So the same again with just enough clients to keep
            # it busy (two), for the latency at (near) full throughput without the queue.
            few = sustained(stack, uploads, sizes.duration / 2, FEW_CLIENTS)
            figures["noop_few_clients"] = FEW_CLIENTS
            figures["noop_few_generations_per_s"] = few["generations_per_s"]
            figures["noop_few_failures"] = few["failures"]
            figures["noop_few_p95_over_single_p50"] = few["p95_s"] / single
            print(
                f"  no-op engine, {FEW_CLIENTS} clients: {few['generations_per_s']:.1f} "
                f"generations/s, {few['failures']} failures, p95 {few['p95_s'] * 1000:.0f} ms",
                flush=True,
            )
        if "scale" in sections:
            stack.add_worker()
            stack.add_imaging()
            stack.wait_imaging_ready(2)
            result = sustained(stack, uploads, sizes.scale_seconds, sizes.concurrency)
            figures["scale_noop_2x2_generations_per_s"] = result["generations_per_s"]
            figures["scale_noop_2x2_failures"] = result["failures"]
            add(figures, "scale_rendered_twice", result["rendered_twice"])
            add(figures, "scale_doubled_charges", stack.doubled_charges())
            print(
                f"  no-op engine, 2 orchestration + 2 imaging workers: "
                f"{result['generations_per_s']:.1f} generations/s",
                flush=True,
            )


def run_once(
    database_url: str | None, sections: set[str], sizes: Sizes, pairs: list[Pair],
    yardstick: EngineOnly | None,
) -> Figures:  # fmt: skip
    figures: Figures = {}
    # P is timed before, between and after the sections and the median taken: one timing
    # can fall on a moment when others load this shared machine, and every CPU figure
    # divides by it.
    samples = [pillow_unit(pairs[0].photo)]
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        data = Path(tmp)
        if sections & {"singles", "burst", "images20", "scale"}:
            cpu_section(figures, data, database_url, sections, sizes, pairs, yardstick)
            samples.append(pillow_unit(pairs[0].photo))
        if sections & {"capacity", "polls", "scale", "floor"}:
            noop_section(figures, data, database_url, sections, sizes, pairs)
    samples.append(pillow_unit(pairs[0].photo))
    unit = statistics.median(samples)
    figures["P_ms"] = unit * 1000
    figures["P_samples_ms"] = [round(x * 1000, 2) for x in samples]
    print(
        f"  P (Pillow decode+encode, 768x1024, one core) = {unit * 1000:.1f} ms "
        f"(median of {', '.join(f'{x * 1000:.1f}' for x in samples)})",
        flush=True,
    )
    for key in [k for k in figures if k.endswith("_P")]:
        figures[key] /= unit
    add_floor_multiples(figures)
    figures["targets"] = [
        {
            "name": t.name,
            "key": t.key,
            "figure": figures.get(t.key),
            "target": t.target_text(),
            "verdict": t.verdict(figures.get(t.key)),
        }
        for t in TARGETS
        if t.key in figures
    ]
    return figures


def add_floor_multiples(figures: Figures) -> None:
    """The control plane's figures as multiples of the floor (what no change of ours can go
    below): Temporal alone (start->result p50; CPU per workflow) plus the image I/O (one P: a
    decode and an encode per image). Needs the floor section; figures already in P units."""
    floor_ms = figures.get("floor_single_p50_ms")
    floor_cpu = figures.get("floor_cpu_per_workflow_P")
    if isinstance(floor_ms, float) and floor_ms > 0:
        for service in ("burstreplace", "bodySwap"):
            e2e = figures.get(f"single_e2e_p50_ms_{service}")
            engine = figures.get(f"single_engine_p50_ms_{service}")
            if isinstance(e2e, float) and isinstance(engine, float):
                floor_total = floor_ms + float(figures["P_ms"])
                figures[f"single_overhead_floors_{service}"] = (e2e - engine) / floor_total
    if isinstance(floor_cpu, float) and floor_cpu > 0:
        for key in ("burst_cpu_per_generation", "images20_cpu_per_image"):
            value = figures.get(f"{key}_P")
            if isinstance(value, float):
                figures[f"{key}_floors"] = value / (floor_cpu + 1.0)


def fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 100 else f"{value:.0f}"
    return str(value) if value is not None else "-"


def print_table(runs: dict[str, Figures]) -> None:
    names = list(runs)
    print("\n" + f"{'figure':<52} " + " ".join(f"{n:>18}" for n in names) + "  target")
    for t in TARGETS:
        cells = []
        for n in names:
            value = runs[n].get(t.key)
            cells.append(
                f"{fmt(value):>9} {t.verdict(value):>8}" if t.key in runs[n] else f"{'-':>18}"
            )
        if any(t.key in runs[n] for n in names):
            print(f"{t.name:<52} " + " ".join(cells) + f"  {t.target_text()}")
    print("\nall figures:")
    keys = sorted({k for r in runs.values() for k in r if k != "targets"})
    for key in keys:
        print(f"  {key:<44} " + " ".join(f"{fmt(runs[n].get(key)):>14}" for n in names))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma-separated: {', '.join(SECTIONS)}"
    )
    parser.add_argument(
        "--db", choices=("sqlite", "postgres", "both"), default=os.environ.get("BENCH_DB", "sqlite")
    )
    parser.add_argument("--duration", type=float, help="seconds of the no-op capacity run (60)")
    parser.add_argument(
        "--concurrency", type=int, help="clients submitting back to back in the no-op run (8)"
    )
    parser.add_argument("--tiny", action="store_true", help="a few generations, a few seconds")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "bench.json")
    args = parser.parse_args(argv)
    sections = {s.strip() for s in args.only.split(",") if s.strip()}
    unknown = sections - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    sizes = Sizes.tiny() if args.tiny else Sizes()
    if args.duration is not None:
        sizes = Sizes(**{**sizes.__dict__, "duration": args.duration})
    if args.concurrency is not None:
        sizes = Sizes(**{**sizes.__dict__, "concurrency": args.concurrency})
    raise_open_files_limit()

    fixtures = fixtures_dir()
    # Five photos every service accepts (one person facing the camera, the whole face in view):
    # the imaging step refuses what the upload's analysis rules out before any engine runs, so
    # a cropped face would count as a failed generation even with the no-op engine.
    photos = [fixtures / "people" / name for name in BENCH_PHOTOS
              if (fixtures / "people" / name).is_file()]
    if not photos:
        sys.exit(f"no fixture photos in {fixtures}")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    print(
        f"bench: sections {', '.join(s for s in SECTIONS if s in sections)}; db {args.db}; "
        f"{os.cpu_count()} cores (shared: figures are noisy)",
        flush=True,
    )
    background = fixtures / "backgrounds" / "bg-1.jpg"
    models = sorted((fixtures / "catalog-models").glob("*.jpg"))
    yardstick = None
    if sections & {"singles", "burst", "images20", "scale", "capacity"}:
        # Each photo with a catalog model whose swap the quality gate delivers (as the engine
        # section does): the gate refuses some pairs (a skin tone too far from the model's),
        # and a refused generation stopped the bench.
        engine = build_engine(settings)
        pairs = accepted_pairs(engine, photos, models, background)
        print("  pairs: " + ", ".join(f"{p.photo.stem}+{p.model_id}" for p in pairs), flush=True)
        if "singles" in sections:
            yardstick = EngineOnly(engine, pairs, background)
    else:
        pairs = [Pair(photo, models[0]) for photo in photos]
    runs: dict[str, Figures] = {}
    for db in ("sqlite", "postgres"):
        if args.db not in (db, "both"):
            continue
        print(f"\n[{db}]", flush=True)
        with ExitStack() as stack:
            url = stack.enter_context(postgres_database()) if db == "postgres" else None
            runs[db] = run_once(url, sections, sizes, pairs, yardstick)
    print_table(runs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "sizes": sizes.__dict__,
        "pairs": {p.photo.name: p.model_id for p in pairs},
        "runs": runs,
    }
    args.out.write_text(json.dumps(document, indent=2, default=str))
    print(f"\nwritten to {args.out}")

    if "engine" in sections and not args.tiny:
        print("\nengine only, one core:", flush=True)
        # Its own process pinned to one core, so threads cannot borrow the second core.
        env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
        subprocess.run(
            ["taskset", "-c", "0", sys.executable, "-m", "ops.bench.engine"], env=env, check=True
        )

    if "provenance" in sections:
        print("\nContent Credentials, per image:", flush=True)
        repeats = ["--repeats", "3", "--photos", "2"] if args.tiny else []
        subprocess.run([sys.executable, "-m", "ops.bench.provenance", *repeats,
                        "--out", str(args.out.parent / "bench-provenance.json")], check=True)


if __name__ == "__main__":
    main()
