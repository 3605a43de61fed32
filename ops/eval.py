"""`make eval`: both operations over the fixture photos, as contact sheets you look at.

Background replace: every people/*.jpg and garments/*.jpg on a rotating backgrounds/*.jpg, plus
"transparent" and "white" for the first two people and the first two garments.
Model swap: every people/*.jpg and garments/*.jpg with a rotating catalog-models/*.jpg and a
rotating background, plus the first person and the first garment with no background.

Writes into out/eval/: `burstreplace.png` and `bodyswap.png` (one row per case: input | model |
background | output; transparent outputs over a checkerboard; an engine error is written in the
output cell) and `timings.md` (engine time per image, warm-up excluded, and p50 per operation).

    python -m ops.eval [--remote http://host:port] [--out out/eval]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from core.engine import Background, EngineError, ImageEngine
from core.images import checkerboard, decode_rgb
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


def _jpgs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jpg"))


def build_cases(fixtures: Path) -> tuple[list[Case], list[Case]]:
    people = _jpgs(fixtures / "people")
    garments = _jpgs(fixtures / "garments")
    backgrounds = _jpgs(fixtures / "backgrounds")
    models = _jpgs(fixtures / "catalog-models")
    missing = [name for name, found in (("people", people), ("garments", garments),
                                        ("backgrounds", backgrounds),
                                        ("catalog-models", models)) if not found]
    if missing:
        raise SystemExit(f"eval: no fixture photos in {fixtures} for {', '.join(missing)} "
                         "(set FIXTURES_DIR)")
    photos = people + garments
    replace = [Case("replace_background", photo, None, backgrounds[i % len(backgrounds)])
               for i, photo in enumerate(photos)]
    for photo in people[:2] + garments[:2]:
        replace += [Case("replace_background", photo, None, kind)
                    for kind in ("transparent", "white")]
    swap: list[Case] = [
        Case("body_swap", photo, models[i % len(models)],
             backgrounds[(i + len(backgrounds) // 2) % len(backgrounds)])
        for i, photo in enumerate(photos)
    ]
    swap += [Case("body_swap", photo, models[0], None) for photo in (people[0], garments[0])]
    return replace, swap


class Loader:
    """Decodes each fixture once."""

    def __init__(self) -> None:
        self.cache: dict[Path, Image.Image] = {}

    def __call__(self, path: Path) -> Image.Image:
        if path not in self.cache:
            self.cache[path] = decode_rgb(path.read_bytes())
        return self.cache[path]


def run_case(engine: ImageEngine, case: Case, load: Loader) -> Outcome:
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
    start = time.perf_counter()
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


def contact_sheet(title: str, outcomes: list[Outcome]) -> Image.Image:
    col_w = CELL_W + PAD
    row_h = CELL_H + CAPTION_H + PAD
    sheet = Image.new("RGB", (PAD + col_w * len(COLUMNS), HEADER_H + row_h * len(outcomes) + PAD),
                      (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((PAD, 4), title, fill=INK, font=HEADER_FONT)
    for c, name in enumerate(COLUMNS):
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
        if outcome.image is not None:
            size = outcome.image.size
            note = "" if size == outcome.inputs["input"].size else f" {size[0]}x{size[1]}"
            cells.append((outcome.image, f"{outcome.ms:.0f} ms {outcome.image.mode}{note}"))
        else:
            cells.append((_error_cell(outcome.error or "failed"), f"{outcome.ms:.0f} ms error"))
        for c, (image, caption) in enumerate(cells):
            x = PAD + c * col_w
            if image is None:
                draw.rectangle((x, y, x + CELL_W - 1, y + CELL_H - 1), fill=BLANK)
            else:
                thumb = _fit(image)
                sheet.paste(thumb, (x + (CELL_W - thumb.width) // 2,
                                    y + (CELL_H - thumb.height) // 2))
            draw.text((x + 2, y + CELL_H + 2), _caption(caption, CELL_W), fill=INK, font=FONT)
    return sheet


def save_sheet(sheet: Image.Image, path: Path) -> int:
    """PNG in full colour, or with a dithered 256-colour palette (then 128) when the full-colour
    file would be over the size budget."""

    def palette(colours: int) -> Callable[[], Image.Image]:
        return lambda: sheet.quantize(
            palette=sheet.quantize(colours, method=Image.Quantize.FASTOCTREE),
            dither=Image.Dither.FLOYDSTEINBERG,
        )

    data = b""
    for make in (lambda: sheet, palette(256), palette(128)):
        out = io.BytesIO()
        make().save(out, "PNG", optimize=True)
        data = out.getvalue()
        if len(data) <= MAX_SHEET_BYTES:
            break
    path.write_bytes(data)
    return len(data)


# Timings ----------------------------------------------------------------------------------


def timings_table(results: dict[str, list[Outcome]]) -> str:
    lines = ["# Engine eval timings", "",
             "Engine time per image in ms (decoding excluded; one untimed warm-up run per "
             "operation first).", "",
             "| operation | input | model | background | ms | result |",
             "|---|---|---|---|---:|---|"]
    for outcomes in results.values():
        for o in outcomes:
            result = "ok" if o.image is not None else (o.error or "error").replace("|", "/")
            lines.append(f"| {o.case.operation} | {o.case.photo.name} | "
                         f"{o.case.model.name if o.case.model else ''} | "
                         f"{o.case.background_label} | {o.ms:.0f} | {result} |")
    lines += ["", "| operation | cases | errors | p50 ms | mean ms | max ms |",
              "|---|---:|---:|---:|---:|---:|"]
    for operation, outcomes in results.items():
        ms = [o.ms for o in outcomes]
        errors = sum(1 for o in outcomes if o.image is None)
        lines.append(f"| {operation} | {len(ms)} | {errors} | {statistics.median(ms):.0f} | "
                     f"{statistics.fmean(ms):.0f} | {max(ms):.0f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--remote", default="", help="evaluate a remote engine at this URL")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "eval")
    args = parser.parse_args()

    engine: ImageEngine
    if args.remote:
        from engine.remote import RemoteEngine

        engine = RemoteEngine(args.remote)
    else:
        from engine.cpu import CpuEngine

        engine = CpuEngine()
    replace, swap = build_cases(fixtures_dir())
    args.out.mkdir(parents=True, exist_ok=True)
    load = Loader()
    results: dict[str, list[Outcome]] = {}
    for operation, cases, sheet_name in (("replace_background", replace, "burstreplace.png"),
                                         ("body_swap", swap, "bodyswap.png")):
        run_case(engine, cases[0], load)  # warm-up: models loaded before timing
        outcomes = []
        for i, case in enumerate(cases, 1):
            outcome = run_case(engine, case, load)
            status = "ok" if outcome.image is not None else outcome.error
            print(f"[{operation} {i}/{len(cases)}] {case.photo.name} "
                  f"bg={case.background_label} {outcome.ms:.0f} ms {status}", file=sys.stderr)
            outcomes.append(outcome)
        results[operation] = outcomes
        title = (f"{operation}: {len(outcomes)} cases, p50 "
                 f"{statistics.median(o.ms for o in outcomes):.0f} ms")
        size = save_sheet(contact_sheet(title, outcomes), args.out / sheet_name)
        print(f"wrote {args.out / sheet_name} ({size / 1024:.0f} KB)", file=sys.stderr)
    table = timings_table(results)
    (args.out / "timings.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
