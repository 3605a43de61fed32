"""`make eval --baseline REV`: the same cases run by the engine of another git revision,
exported with `git archive` and run in a child process, so the sheets and tables can show
before and after; nothing in the working tree or the repository changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from ops.eval.cases import Case, Outcome
from ops.eval.running import Loader

REPO = Path(__file__).resolve().parent.parent.parent

# Run inside the exported baseline tree (its own engine and core), in a child process: runs each
# job and writes its output as PNG, and a JSON of timings and errors. Only the CpuEngine API that
# every revision has (replace_background, body_swap, Background) is used.
_BASELINE_SCRIPT = """
import json, sys, time
from pathlib import Path
from PIL import Image
from core.engine import Background, EngineError
from engine.cpu import CpuEngine
jobs, out = json.loads(Path(sys.argv[1]).read_text()), Path(sys.argv[2])
engine = CpuEngine()
def run(job):
    photo = Image.open(job["photo"]).convert("RGB")
    back = job["background"]
    background = (None if back is None else Background.builtin(back)
                  if back in ("transparent", "white")
                  else Background.photo(Image.open(back).convert("RGB")))
    if job["operation"] == "body_swap":
        return engine.body_swap(photo, Image.open(job["model"]).convert("RGB"), background)
    return engine.replace_background(photo, background)
for warm in {job["operation"]: job for job in jobs}.values():  # models loaded before timing
    try:
        run(warm)
    except Exception:
        pass
results = []
for i, job in enumerate(jobs):
    start = time.perf_counter()
    try:
        image = run(job)
        ms = (time.perf_counter() - start) * 1000
        image.save(out / f"{i}.png")
        results.append({"ms": ms, "error": None})
    except EngineError as error:
        ms = (time.perf_counter() - start) * 1000
        results.append({"ms": ms, "error": type(error).__name__ + ": " + error.message})
    except Exception as error:
        ms = (time.perf_counter() - start) * 1000
        results.append({"ms": ms, "error": "CRASH " + type(error).__name__ + ": " + str(error)})
(out / "results.json").write_text(json.dumps(results))
"""


def baseline_outcomes(revision: str, cases: list[Case], load: Loader) -> list[Outcome]:
    """Every case run by the engine of git `revision`: the revision's files are exported with
    `git archive` (read-only: no checkout, no worktree, nothing in the repository changes) into
    a temporary directory and its engine is run from there by this interpreter."""
    with tempfile.TemporaryDirectory(prefix="eval-baseline-") as temp:
        tree, out = Path(temp) / "tree", Path(temp) / "out"
        tree.mkdir()
        out.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", revision],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        jobs = [{"operation": case.operation, "photo": str(case.photo),
                 "model": str(case.model) if case.model else None,
                 "background": (str(case.background) if case.background is not None else None)}
                for case in cases]
        (Path(temp) / "jobs.json").write_text(json.dumps(jobs))
        print(f"baseline {revision}: {len(jobs)} cases in {tree}", file=sys.stderr)
        subprocess.run([sys.executable, "-c", _BASELINE_SCRIPT, str(Path(temp) / "jobs.json"),
                        str(out)], cwd=tree, env={**_child_env(), "PYTHONPATH": str(tree)},
                       check=True)
        results = json.loads((out / "results.json").read_text())
        outcomes = []
        for i, (case, found) in enumerate(zip(cases, results, strict=True)):
            image = None
            if found["error"] is None:
                with Image.open(out / f"{i}.png") as saved:
                    image = saved.copy()
            inputs = {"input": load(case.photo)}
            outcomes.append(Outcome(case, found["ms"], image=image, error=found["error"],
                                    inputs=inputs))
        return outcomes


def _child_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}

