"""`make eval`'s contact sheets: one row per case (input | model | background | [before |]
output) and the people-wild cut-outs, drawn with Pillow and saved under a size budget."""

from __future__ import annotations

import io
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from core.photos.images import checkerboard
from ops.eval.cases import Outcome
from ops.eval.running import Loader
from ops.eval.wild import WildScore, mean

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


def error_cell(message: str) -> Image.Image:
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
    return error_cell(outcome.error or "failed"), gate_caption(outcome)


def draw_row(sheet: Image.Image, draw: ImageDraw.ImageDraw,
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
        draw_row(sheet, draw, cells, y, col_w)
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
    mean_after = mean([s.iou for s in after])
    title = f"people-wild: mean IoU {mean_after:.3f}"
    if before is not None:
        title = (f"people-wild: mean IoU {mean([s.iou for s in before]):.3f} -> "
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
                cells.append((error_cell(found.error or "failed"), "refused"))
            else:
                cells.append((_cut_out(photo, found.alpha),
                              f"IoU {found.iou:.3f} err {found.alpha_error:.3f}"))
        y = HEADER_H + r * row_h
        draw_row(sheet, draw, cells, y, col_w)
    return sheet
