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

    python -m ops.eval [--remote http://host:port] [--out out/eval] [--baseline REV]
        [--wild-only]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from core.engine import Background, EngineError, ImageEngine
from core.images import checkerboard, decode_rgb
from engine import quality
from ops.seed import fixtures_dir

REPO = Path(__file__).resolve().parent.parent

CELL_W, CELL_H = 160, 200
CAPTION_H = 16
PAD = 6
HEADER_H = 40
COLUMNS = ("input", "model", "background", "output")
MAX_SHEET_BYTES = 5 * 1024 * 1024 // 2  # well under 3 MB

BLANK = (246, 246, 246)
INK = (40, 40, 40)
ERROR_INK = (170, 20, 20)
ERROR_FILL = (253, 232, 232)


@dataclass
class Case:
    operation: str  # "replace_background" | "body_swap"
    photo: Path
    model: Path | None
    background: str | Path | None  # a photo, "transparent"/"white", or none
    # The fixture folder the case stands for in the gate table: people, garments, people-wild,
    # people-back or scenes (a person placed on a scene).
    category: str = ""

    @property
    def background_label(self) -> str:
        if self.background is None:
            return "none"
        return self.background if isinstance(self.background, str) else self.background.name


@dataclass
class Outcome:
    case: Case
    ms: float
    image: Image.Image | None = None
    error: str | None = None
    inputs: dict[str, Image.Image] = field(default_factory=dict)
    # The engine's self-check of this output (engine/quality.py): scores and verdict, also for
    # an output the gate refused; empty for a remote engine (it scores on its own side).
    quality: str = ""
    # The upload's analysis refused the case before the engine ran (as the submit would): why.
    refused_at_upload: str = ""
    gate_passed: bool | None = None  # the gate's verdict, None where it did not score

    @property
    def verdict(self) -> str:
        """delivered, refused at upload, refused by the gate, or error."""
        if self.image is not None:
            return "delivered"
        if self.refused_at_upload:
            return "refused at upload"
        if self.gate_passed is False:
            return "refused by the gate"
        return "error"


def _jpgs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jpg"))


def build_cases(fixtures: Path) -> tuple[list[Case], list[Case]]:
    people = _jpgs(fixtures / "people")
    garments = _jpgs(fixtures / "garments")
    wild = _jpgs(fixtures / "people-wild")
    backgrounds = _jpgs(fixtures / "backgrounds")
    models = _jpgs(fixtures / "catalog-models")
    missing = [name for name, found in (("people", people), ("garments", garments),
                                        ("backgrounds", backgrounds),
                                        ("catalog-models", models)) if not found]
    if missing:
        raise SystemExit(f"eval: no fixture photos in {fixtures} for {', '.join(missing)} "
                         "(set FIXTURES_DIR)")
    backs = _jpgs(fixtures / "people-back")
    scenes = _jpgs(fixtures / "scenes")
    photos = people + garments

    def category(photo: Path) -> str:
        return photo.parent.name

    replace = [Case("replace_background", photo, None, backgrounds[i % len(backgrounds)],
                    category(photo))
               for i, photo in enumerate(photos + wild + backs)]
    for photo in people[:2] + garments[:2] + backs[:1]:
        replace += [Case("replace_background", photo, None, kind, category(photo))
                    for kind in ("transparent", "white")]
    # Each scene with a standing person (a rotating people or people-back photo): placement.
    standing = people + backs
    replace += [Case("replace_background", standing[i % len(standing)], None, scene, "scenes")
                for i, scene in enumerate(scenes)]
    swap: list[Case] = [
        Case("body_swap", photo, models[i % len(models)],
             backgrounds[(i + len(backgrounds) // 2) % len(backgrounds)], category(photo))
        for i, photo in enumerate(photos + wild + backs)
    ]
    swap += [Case("body_swap", photo, models[0], None, category(photo))
             for photo in (people[0], garments[0])]
    swap += [Case("body_swap", people[i % len(people)], models[i % len(models)], scene, "scenes")
             for i, scene in enumerate(scenes)]
    return replace, swap


class Loader:
    """Decodes each fixture once."""

    def __init__(self) -> None:
        self.cache: dict[Path, Image.Image] = {}

    def __call__(self, path: Path) -> Image.Image:
        if path not in self.cache:
            self.cache[path] = decode_rgb(path.read_bytes())
        return self.cache[path]


def upload_refusal(case: Case, photo: Image.Image) -> str:
    """What the upload's analysis says against this case's service ("" when it allows it): the
    submit answers 422 with it, so the engine never sees the photo."""
    from core.photo_analysis import BODY_SWAP, BURST_REPLACE
    from engine.photo_analysis import analyse_photo

    service = BODY_SWAP if case.operation == "body_swap" else BURST_REPLACE
    return analyse_photo(np.asarray(photo.convert("RGB"))).refusal(service) or ""


def run_case(engine: ImageEngine, case: Case, load: Loader, analyse: bool = True) -> Outcome:
    """One case as the product runs it: the upload's analysis first (with `analyse`; a remote
    engine's own side does that), then the engine, its gate's report kept."""
    photo = load(case.photo)
    inputs = {"input": photo}
    background: Background | None = None
    if isinstance(case.background, Path):
        inputs["background"] = load(case.background)
        background = Background.photo(inputs["background"])
    elif isinstance(case.background, str):
        background = Background.builtin(case.background)
    model = load(case.model) if case.model is not None else None
    if model is not None:
        inputs["model"] = model
    if analyse:
        refusal = upload_refusal(case, photo)
        if refusal:
            return Outcome(case, 0.0, error=f"Refused at upload: {refusal}", inputs=inputs,
                           refused_at_upload=refusal)
    start = time.perf_counter()
    with quality.recording() as reports:
        outcome = _timed_call(engine, case, photo, model, background, inputs, start)
    if reports:
        outcome.quality = reports[-1].summary()
        outcome.gate_passed = reports[-1].passed
    return outcome


def _timed_call(engine: ImageEngine, case: Case, photo: Image.Image, model: Image.Image | None,
                background: Background | None, inputs: dict[str, Image.Image],
                start: float) -> Outcome:
    try:
        if case.operation == "body_swap":
            assert model is not None
            image = engine.body_swap(photo, model, background)
        else:
            assert background is not None
            image = engine.replace_background(photo, background)
        return Outcome(case, (time.perf_counter() - start) * 1000, image=image, inputs=inputs)
    except EngineError as error:
        ms = (time.perf_counter() - start) * 1000
        return Outcome(case, ms, error=f"{type(error).__name__}: {error.message}", inputs=inputs)
    except Exception as error:  # a bug, not a rejection: still draw it, keep going
        ms = (time.perf_counter() - start) * 1000
        return Outcome(case, ms, error=f"CRASH {type(error).__name__}: {error}", inputs=inputs)


# Drawing ----------------------------------------------------------------------------------


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                 "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"):
        if Path(path).exists():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size)


FONT = _font(11)
HEADER_FONT = _font(13)


def _fit(image: Image.Image) -> Image.Image:
    thumb = image.copy()
    thumb.thumbnail((CELL_W, CELL_H), Image.Resampling.LANCZOS, reducing_gap=2.0)
    if thumb.mode == "RGBA":
        board = checkerboard(thumb.size, cell=8)
        board.paste(thumb, mask=thumb.getchannel("A"))
        return board
    return thumb.convert("RGB")


def _swatch(kind: str) -> Image.Image:
    if kind == "transparent":
        return checkerboard((CELL_W * 3 // 4, CELL_H), cell=8)
    swatch = Image.new("RGB", (CELL_W * 3 // 4, CELL_H), (255, 255, 255))
    ImageDraw.Draw(swatch).rectangle((0, 0, swatch.width - 1, swatch.height - 1),
                                     outline=(200, 200, 200))
    return swatch


def _error_cell(message: str) -> Image.Image:
    cell = Image.new("RGB", (CELL_W, CELL_H), ERROR_FILL)
    draw = ImageDraw.Draw(cell)
    lines = textwrap.wrap(message, width=26)[:14]
    draw.multiline_text((5, 5), "\n".join(lines), fill=ERROR_INK, font=FONT, spacing=2)
    return cell


def _caption(text: str, width: int) -> str:
    limit = width // 6
    return text if len(text) <= limit else text[: limit - 1] + "…"


def gate_caption(outcome: Outcome) -> str:
    """The gate's verdict in a few words, for the caption under an output."""
    if outcome.refused_at_upload:
        return "refused at upload"
    if outcome.gate_passed is None:
        return "error" if outcome.image is None else "no gate"
    report = outcome.quality.split(" -> ", 1)[-1]
    return "gate ok" if outcome.gate_passed else "gate: " + report.removeprefix("FAILED ")


def _output_cell(outcome: Outcome) -> tuple[Image.Image, str]:
    if outcome.image is not None:
        size = outcome.image.size
        note = "" if size == outcome.inputs["input"].size else f" {size[0]}x{size[1]}"
        return outcome.image, f"{outcome.ms:.0f} ms{note} {gate_caption(outcome)}"
    return _error_cell(outcome.error or "failed"), gate_caption(outcome)


def _draw_row(sheet: Image.Image, draw: ImageDraw.ImageDraw,
              cells: list[tuple[Image.Image | None, str]], y: int, col_w: int) -> None:
    """One row of a contact sheet: each cell's image fitted and centred (a blank when there is
    none), its caption under it."""
    for c, (image, caption) in enumerate(cells):
        x = PAD + c * col_w
        if image is None:
            draw.rectangle((x, y, x + CELL_W - 1, y + CELL_H - 1), fill=BLANK)
        else:
            thumb = _fit(image)
            sheet.paste(thumb, (x + (CELL_W - thumb.width) // 2,
                                y + (CELL_H - thumb.height) // 2))
        draw.text((x + 2, y + CELL_H + 2), _caption(caption, CELL_W), fill=INK, font=FONT)


def contact_sheet(title: str, outcomes: list[Outcome],
                  before: list[Outcome] | None = None) -> Image.Image:
    """One row per case; with `before` (the same cases by a baseline engine) a "before" column
    sits left of the output."""
    columns = COLUMNS if before is None else (*COLUMNS[:-1], "before", "after")
    col_w = CELL_W + PAD
    row_h = CELL_H + CAPTION_H + PAD
    sheet = Image.new("RGB", (PAD + col_w * len(columns), HEADER_H + row_h * len(outcomes) + PAD),
                      (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 4), title, fill=INK, font=HEADER_FONT)
    for c, name in enumerate(columns):
        draw.text((PAD + c * col_w + 2, 23), name, fill=(120, 120, 120), font=FONT)
    for r, outcome in enumerate(outcomes):
        case = outcome.case
        y = HEADER_H + r * row_h
        cells: list[tuple[Image.Image | None, str]] = [
            (outcome.inputs["input"], case.photo.name),
            (outcome.inputs.get("model"), case.model.name if case.model else ""),
        ]
        if isinstance(case.background, Path):
            cells.append((outcome.inputs["background"], case.background.name))
        elif isinstance(case.background, str):
            cells.append((_swatch(case.background), case.background))
        else:
            cells.append((None, "no background" if case.operation == "body_swap" else ""))
        if before is not None:
            cells.append(_output_cell(before[r]))
        cells.append(_output_cell(outcome))
        _draw_row(sheet, draw, cells, y, col_w)
    return sheet


def save_sheet(sheet: Image.Image, path: Path) -> int:
    """PNG in full colour, or with a dithered 256-colour palette (then 128) when the full-colour
    file would be over the size budget."""

    def palette(colours: int) -> Callable[[], Image.Image]:
        return lambda: sheet.quantize(
            palette=sheet.quantize(colours, method=Image.Quantize.FASTOCTREE),
            dither=Image.Dither.FLOYDSTEINBERG,
        )

    def full() -> Image.Image:
        return sheet

    data = b""
    makers: tuple[Callable[[], Image.Image], ...] = (full, palette(256), palette(128))
    for make in makers:
        out = io.BytesIO()
        make().save(out, "PNG", optimize=True)
        data = out.getvalue()
        if len(data) <= MAX_SHEET_BYTES:
            break
    path.write_bytes(data)
    return len(data)


# People in the wild -----------------------------------------------------------------------

WILD_MEAN_IOU = 0.93  # targets of issue 13: mean IoU over the people-wild masks ...
WILD_EACH_IOU = 0.90  # ... and IoU of each photo


@dataclass
class WildScore:
    photo: Path
    ms: float
    alpha: NDArray[Any] | None = None  # float32 0..1, the photo's size
    error: str | None = None
    iou: float = 0.0
    alpha_error: float = 1.0


def wild_pairs(fixtures: Path) -> list[tuple[Path, Path]]:
    """(photo, reference mask) for every people-wild photo that has its mask."""
    folder = fixtures / "people-wild"
    return [(photo, photo.with_suffix(".mask.png")) for photo in _jpgs(folder)
            if photo.with_suffix(".mask.png").exists()]


def reference(mask: Path) -> NDArray[Any]:
    return np.asarray(Image.open(mask).convert("L"), np.float32) / 255.0


def score(photo: Path, mask: Path, ms: float, alpha: NDArray[Any] | None,
          error: str | None) -> WildScore:
    """IoU (both mattes thresholded at 0.5) and mean absolute alpha error; a refusal or an
    output of the wrong size scores IoU 0 and error 1."""
    result = WildScore(photo, ms, alpha, error)
    truth = reference(mask)
    if alpha is None or alpha.shape != truth.shape:
        if alpha is not None:
            result.error = f"matte {alpha.shape[::-1]} != photo {truth.shape[::-1]}"
        return result
    ours, theirs = alpha > 0.5, truth > 0.5
    result.iou = float((ours & theirs).sum() / max(1, (ours | theirs).sum()))
    result.alpha_error = float(np.abs(alpha - truth).mean())
    return result


def engine_wild(engine: ImageEngine, pairs: list[tuple[Path, Path]],
                load: Loader) -> list[WildScore]:
    """This engine's cut-out (background replace, transparent) of every people-wild photo."""
    transparent = Background.builtin("transparent")
    with contextlib.suppress(EngineError):  # warm-up: models loaded before timing
        engine.replace_background(load(pairs[0][0]), transparent)
    scores = []
    for photo, mask in pairs:
        start = time.perf_counter()
        try:
            out = engine.replace_background(load(photo), transparent)
            ms = (time.perf_counter() - start) * 1000
            alpha = np.asarray(out.getchannel("A"), np.float32) / 255.0
            scores.append(score(photo, mask, ms, alpha, None))
        except EngineError as error:
            ms = (time.perf_counter() - start) * 1000
            scores.append(score(photo, mask, ms, None, f"{type(error).__name__}: "
                                                       f"{error.message}"))
    return scores


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


def wild_cases(pairs: list[tuple[Path, Path]]) -> list[Case]:
    return [Case("replace_background", photo, None, "transparent") for photo, _ in pairs]


def wild_from_outcomes(pairs: list[tuple[Path, Path]],
                       outcomes: list[Outcome]) -> list[WildScore]:
    scores = []
    for (photo, mask), outcome in zip(pairs, outcomes, strict=True):
        alpha = None
        if outcome.image is not None:
            alpha = np.asarray(outcome.image.convert("RGBA").getchannel("A"), np.float32) / 255
        scores.append(score(photo, mask, outcome.ms, alpha, outcome.error))
    return scores


def _child_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}


def _mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else 0.0


def wild_table(after: list[WildScore], before: list[WildScore] | None, revision: str) -> str:
    """Markdown: per photo IoU and alpha error (before | after with a baseline), the mean row
    and whether each target is met."""
    lines = ["# People in the wild: cut-out against the reference masks", "",
             f"IoU at alpha 0.5 and mean absolute alpha error; targets: IoU >= {WILD_EACH_IOU:.2f}"
             f" on each photo, >= {WILD_MEAN_IOU:.2f} mean. A refusal scores IoU 0 and alpha "
             "error 1 (in the means).", ""]
    if before is not None:
        lines += [f"before = `{revision}`, after = this working tree.", "",
                  "| photo | IoU before | IoU after | alpha err before | alpha err after | "
                  "ms before | ms after | target | after |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    else:
        lines += ["| photo | IoU | alpha err | ms | target | result |",
                  "|---|---:|---:|---:|---:|---|"]

    def verdict(value: float, target: float) -> str:
        return "met" if value >= target else "short"

    def cell(s: WildScore, value: float) -> str:
        return f"{value:.3f}" if s.error is None else "refused"

    for i, s in enumerate(after):
        note = "" if s.error is None else f" ({s.error.replace('|', '/')[:60]})"
        if before is not None:
            b = before[i]
            lines.append(f"| {s.photo.name} | {cell(b, b.iou)} | {cell(s, s.iou)} | "
                         f"{cell(b, b.alpha_error)} | {cell(s, s.alpha_error)} | {b.ms:.0f} | "
                         f"{s.ms:.0f} | {WILD_EACH_IOU:.2f} | "
                         f"{verdict(s.iou, WILD_EACH_IOU)}{note} |")
        else:
            lines.append(f"| {s.photo.name} | {cell(s, s.iou)} | {cell(s, s.alpha_error)} | "
                         f"{s.ms:.0f} | {WILD_EACH_IOU:.2f} | "
                         f"{verdict(s.iou, WILD_EACH_IOU)}{note} |")
    mean_iou = _mean([s.iou for s in after])
    mean_error = _mean([s.alpha_error for s in after])
    if before is not None:
        lines.append(f"| **mean** | {_mean([s.iou for s in before]):.3f} | {mean_iou:.3f} | "
                     f"{_mean([s.alpha_error for s in before]):.3f} | {mean_error:.3f} | "
                     f"{_mean([s.ms for s in before]):.0f} | {_mean([s.ms for s in after]):.0f}"
                     f" | {WILD_MEAN_IOU:.2f} | {verdict(mean_iou, WILD_MEAN_IOU)} |")
    else:
        lines.append(f"| **mean** | {mean_iou:.3f} | {mean_error:.3f} | "
                     f"{_mean([s.ms for s in after]):.0f} | {WILD_MEAN_IOU:.2f} | "
                     f"{verdict(mean_iou, WILD_MEAN_IOU)} |")
    each = sum(1 for s in after if s.iou >= WILD_EACH_IOU)
    lines += ["", f"Photos at or above {WILD_EACH_IOU:.2f}: {each}/{len(after)}; refused: "
                  f"{sum(1 for s in after if s.error is not None)}."]
    return "\n".join(lines) + "\n"


def _cut_out(photo: Image.Image, alpha: NDArray[Any]) -> Image.Image:
    rgba = photo.convert("RGBA")
    rgba.putalpha(Image.fromarray(np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8), "L"))
    return rgba


def wild_sheet(pairs: list[tuple[Path, Path]], after: list[WildScore],
               before: list[WildScore] | None, load: Loader, revision: str) -> Image.Image:
    """input | reference mask | before | after: the cut-outs over a checkerboard, captioned
    with their IoU (a refusal shows its message)."""
    columns = ["input", "reference mask", f"before ({revision})" if before else "before: none",
               "after"]
    col_w, row_h = CELL_W + PAD, CELL_H + CAPTION_H + PAD
    sheet = Image.new("RGB", (PAD + col_w * len(columns), HEADER_H + row_h * len(pairs) + PAD),
                      (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    mean_after = _mean([s.iou for s in after])
    title = f"people-wild: mean IoU {mean_after:.3f}"
    if before is not None:
        title = (f"people-wild: mean IoU {_mean([s.iou for s in before]):.3f} -> "
                 f"{mean_after:.3f}")
    draw.text((PAD, 4), title, fill=INK, font=HEADER_FONT)
    for c, name in enumerate(columns):
        draw.text((PAD + c * col_w + 2, 23), _caption(name, CELL_W), fill=(120, 120, 120),
                  font=FONT)
    for r, (photo_path, mask_path) in enumerate(pairs):
        photo = load(photo_path)
        cells: list[tuple[Image.Image | None, str]] = [
            (photo, photo_path.name), (Image.open(mask_path).convert("RGB"), "U-2-Net mask")]
        for found in (before[r] if before else None, after[r]):
            if found is None:
                cells.append((None, ""))
            elif found.alpha is None:
                cells.append((_error_cell(found.error or "failed"), "refused"))
            else:
                cells.append((_cut_out(photo, found.alpha),
                              f"IoU {found.iou:.3f} err {found.alpha_error:.3f}"))
        y = HEADER_H + r * row_h
        _draw_row(sheet, draw, cells, y, col_w)
    return sheet


# Timings ----------------------------------------------------------------------------------


def timings_table(results: dict[str, list[Outcome]]) -> str:
    lines = ["# Engine eval timings", "",
             "Engine time per image in ms (decoding excluded; one untimed warm-up run per "
             "operation first).", "",
             "| operation | input | model | background | ms | result | quality scores |",
             "|---|---|---|---|---:|---|---|"]
    for outcomes in results.values():
        for o in outcomes:
            result = "ok" if o.image is not None else (o.error or "error").replace("|", "/")
            lines.append(f"| {o.case.operation} | {o.case.photo.name} | "
                         f"{o.case.model.name if o.case.model else ''} | "
                         f"{o.case.background_label} | {o.ms:.0f} | {result} | "
                         f"{o.quality or '-'} |")
    lines += ["", "| operation | cases | errors | p50 ms | mean ms | max ms |",
              "|---|---:|---:|---:|---:|---:|"]
    for operation, outcomes in results.items():
        # What the upload's analysis refused never reached the engine: no time to count.
        ms = [o.ms for o in outcomes if not o.refused_at_upload] or [0.0]
        errors = sum(1 for o in outcomes if o.image is None)
        lines.append(f"| {operation} | {len(ms)} | {errors} | {statistics.median(ms):.0f} | "
                     f"{statistics.fmean(ms):.0f} | {max(ms):.0f} |")
    return "\n".join(lines) + "\n"


def gate_table(results: dict[str, list[Outcome]]) -> str:
    """Per fixture category and operation: what was delivered and what was refused where, then
    every output's gate scores."""
    lines = ["# The quality gate over the fixtures", "",
             "Each case as the product runs it: the upload's analysis first (a refusal there is a "
             "422 at submit, nothing charged), then the engine and its gate (a refusal there is "
             "refunded).", "",
             "| category | operation | cases | delivered | refused at upload | "
             "refused by the gate | errors |", "|---|---|---:|---:|---:|---:|---:|"]
    every = [o for outcomes in results.values() for o in outcomes]
    for category in sorted({o.case.category for o in every}):
        for operation in results:
            rows = [o for o in every if o.case.category == category
                    and o.case.operation == operation]
            if not rows:
                continue
            count = {v: sum(1 for o in rows if o.verdict == v) for v in (
                "delivered", "refused at upload", "refused by the gate", "error")}
            lines.append(f"| {category} | {operation} | {len(rows)} | {count['delivered']} | "
                         f"{count['refused at upload']} | {count['refused by the gate']} | "
                         f"{count['error']} |")
    lines += ["", "| category | operation | input | model | background | verdict | gate scores |",
              "|---|---|---|---|---|---|---|"]
    for o in every:
        why = o.refused_at_upload or (o.error if o.verdict == "error" else "") or ""
        lines.append(f"| {o.case.category} | {o.case.operation} | {o.case.photo.name} | "
                     f"{o.case.model.name if o.case.model else ''} | {o.case.background_label} | "
                     f"{o.verdict}{': ' + why if why else ''} | "
                     f"{(o.quality or '-').replace('|', '/')} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--remote", default="", help="evaluate a remote engine at this URL")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "eval")
    parser.add_argument("--baseline", default="",
                        help="git revision whose engine is scored beside this one (people-wild)")
    parser.add_argument("--wild-only", action="store_true",
                        help="only the people-wild scores and sheet")
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


if __name__ == "__main__":
    main()
