"""`make eval`: both operations over the fixture photos, as contact sheets you look at.

Background replace: every people, garments, people-wild and people-back photo on a rotating
backgrounds/*.jpg, plus "transparent" and "white" for the first two people, the first two
garments and the first back view, and each scenes/*.jpg with a standing person.
Model swap: every people, garments, people-wild and people-back photo with a rotating
catalog-models/*.jpg and a rotating background, the first person and the first garment with no
background, and a person on each scenes/*.jpg.

People in the wild: every people-wild/wild-NN.jpg is cut out (background replace, transparent)
and its matte scored against wild-NN.mask.png: IoU (both thresholded at 0.5) and the mean
absolute alpha error, per photo and mean, beside the targets (IoU >= 0.93 mean, >= 0.90 each).
With `--baseline REV` every case is also run by the engine of git revision REV (exported with
`git archive` into a temporary directory and run there in a child process; nothing in the
working tree or the repository changes): the tables and sheets show before/after side by side.

Writes into out/eval/: `burstreplace.png` and `bodyswap.png` (one row per case: input | model |
background | [before |] output; transparent outputs over a checkerboard; an engine error is
written in the output cell), `wild.png` (input | reference mask | before | after cut-outs),
`wild.md` (the people-wild table), `timings.md` (engine time per image, warm-up excluded,
and p50 per operation) and `gate.md` (per fixture category: delivered, refused at upload,
refused by the gate; then every output's gate scores). Each case runs as the product runs it:
the upload's analysis first (what it refuses is a 422 at submit and never reaches the engine),
then the engine with its quality gate; every output cell's caption says the gate's verdict.
The categories: people, garments, people-wild and people-back (model swap and background
replace each), and scenes (a person placed on each scenes/ photo, by both operations).
The people-wild photos are also in the background-replace sheet. `python -m ops.eval
--baseline HEAD` compares the working tree with the last commit.

Composites (ops/eval/composites.py): three people placed on every scenes/ photo, one sheet per
kind of scene (`composites-<kind>.png`, the labelled walkable ground outlined in green) and
`composites.md` (per kind: placed as usual, framed as a medium shot, moved, refused).

    python -m ops.eval [--remote http://host:port] [--out out/eval] [--baseline REV]
        [--wild-only | --composites-only]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from core.engine import ImageEngine
from ops.eval import composites
from ops.eval.baseline import REPO, baseline_outcomes
from ops.eval.cases import Outcome, build_cases
from ops.eval.running import Loader, run_case
from ops.eval.sheets import contact_sheet, save_sheet, wild_sheet
from ops.eval.tables import gate_table, timings_table, wild_table
from ops.eval.wild import engine_wild, wild_cases, wild_from_outcomes, wild_pairs
from ops.seed import fixtures_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--remote", default="", help="evaluate a remote engine at this URL")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "eval")
    parser.add_argument("--baseline", default="",
                        help="git revision whose engine is scored beside this one (people-wild)")
    parser.add_argument("--wild-only", action="store_true",
                        help="only the people-wild scores and sheet")
    parser.add_argument("--composites-only", action="store_true",
                        help="only the composites per kind of scene")
    args = parser.parse_args()

    engine: ImageEngine
    if args.remote:
        from engine.remote import RemoteEngine

        engine = RemoteEngine(args.remote)
    else:
        from engine.cpu import CpuEngine

        engine = CpuEngine()
    fixtures = fixtures_dir()
    args.out.mkdir(parents=True, exist_ok=True)
    load = Loader()
    if args.composites_only:
        write_composites(engine, fixtures, load, args.out)
        return
    wild = wild_pairs(fixtures)
    replace, swap = build_cases(fixtures) if not args.wild_only else ([], [])
    before_all: list[Outcome] = []
    if args.baseline:
        before_all = baseline_outcomes(args.baseline, wild_cases(wild) + replace + swap, load)
    befores = {"wild": before_all[: len(wild)],
               "replace_background": before_all[len(wild): len(wild) + len(replace)],
               "body_swap": before_all[len(wild) + len(replace):]}
    if wild:
        before = wild_from_outcomes(wild, befores["wild"]) if args.baseline else None
        after = engine_wild(engine, wild, load)
        report = wild_table(after, before, args.baseline)
        (args.out / "wild.md").write_text(report)
        size = save_sheet(wild_sheet(wild, after, before, load, args.baseline),
                          args.out / "wild.png")
        print(f"wrote {args.out / 'wild.png'} ({size / 1024:.0f} KB)", file=sys.stderr)
        print(report)
    if args.wild_only:
        return
    results: dict[str, list[Outcome]] = {}
    for operation, cases, sheet_name in (("replace_background", replace, "burstreplace.png"),
                                         ("body_swap", swap, "bodyswap.png")):
        run_case(engine, cases[0], load, analyse=False)  # warm-up: models loaded first
        outcomes = []
        for i, case in enumerate(cases, 1):
            outcome = run_case(engine, case, load, analyse=not args.remote)
            status = "ok" if outcome.image is not None else outcome.error
            print(f"[{operation} {i}/{len(cases)}] {case.photo.name} "
                  f"bg={case.background_label} {outcome.ms:.0f} ms {status}", file=sys.stderr)
            outcomes.append(outcome)
        results[operation] = outcomes
        engine_ms = [o.ms for o in outcomes if not o.refused_at_upload] or [0.0]
        title = (f"{operation}: {len(outcomes)} cases, p50 "
                 f"{statistics.median(engine_ms):.0f} ms")
        before_cases = befores[operation] if args.baseline else None
        if before_cases is not None:
            title += f"; before = {args.baseline}"
        size = save_sheet(contact_sheet(title, outcomes, before_cases), args.out / sheet_name)
        print(f"wrote {args.out / sheet_name} ({size / 1024:.0f} KB)", file=sys.stderr)
    table = timings_table(results)
    (args.out / "timings.md").write_text(table)
    print(table)
    gates = gate_table(results)
    (args.out / "gate.md").write_text(gates)
    print(gates)
    write_composites(engine, fixtures, load, args.out)


def write_composites(engine: ImageEngine, fixtures: Path, load: Loader, out: Path) -> None:
    by_kind = composites.cases(fixtures)
    done = composites.run(engine, by_kind, load)
    for kind, made in sorted(done.items()):
        path = out / f"composites-{kind}.png"
        size = save_sheet(composites.sheet(kind, made, len(composites.PEOPLE)), path)
        print(f"wrote {path} ({size / 1024:.0f} KB)", file=sys.stderr)
    report = composites.table(done)
    (out / "composites.md").write_text(report)
    print(report)
