"""`make eval`'s composites: people placed into real places, one contact sheet per kind of scene.

Each scenes/*.jpg gets the same three people by background replace, as the product makes it: a
whole person, head to feet (people-back/back-02), and the usual shop shot whose head the frame cuts
with the shoes in view (both need ground under their feet, a medium shot, or a move), and one cut
by the frame at the thighs (it needs no ground). Where a
scene has a hand-labelled walkable-ground mask beside it (`<name>.ground.png`), its outline is
drawn in green over the background and the outputs, so whoever looks can tell at a glance whether
the feet stand on it. Each output's caption says what the engine did: "placed" as usual, or the
note it left for the user (a medium shot, a move), or why it refused.

Writes `composites-<kind>.png` per kind of scene and `composites.md` (per kind: cases, placed as
usual, framed as a medium shot, moved, refused); the by-eye verdicts (publishable, usable with
edits, bad) are for the person who looks at the sheets.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from core.engine import ImageEngine, collecting_notes
from engine.arrays import Image8
from ops.eval.cases import Case, Outcome
from ops.eval.running import Loader, run_case
from ops.eval.sheets import (
    CAPTION_H,
    CELL_H,
    CELL_W,
    FONT,
    HEADER_FONT,
    HEADER_H,
    INK,
    PAD,
    draw_row,
    error_cell,
)

# The people placed on every scene, as paths in the shared fixtures: feet in view (a whole person;
# a shop shot with the head cut by the frame), then one cut by the frame at the thighs.
FEET_IN_VIEW = ("people-back/back-02.jpg", "people/049205_0.jpg")
CUT_AT_THIGHS = ("people/01008_00.jpg",)
PEOPLE = FEET_IN_VIEW + CUT_AT_THIGHS
# The early scenes are numbered, not named by kind: what each shows (the fixtures' SOURCES.md).
NUMBERED_KINDS = {
    "scene-01": "street", "scene-02": "room", "scene-03": "beach", "scene-04": "field",
    "scene-05": "room", "scene-06": "street", "scene-07": "field",
}
GROUND_OUTLINE = (40, 220, 60)


def kind_of(scene: Path) -> str:
    """beach-01.jpg -> beach; the numbered early scenes by what they show."""
    stem = scene.stem
    return NUMBERED_KINDS.get(stem) or re.sub(r"-\d+$", "", stem)


@dataclass
class Composite:
    outcome: Outcome
    notes: list[str]

    @property
    def what(self) -> str:
        """placed | medium shot | moved | refused: what the engine did with the person ("placed":
        where it places that kind of shot, with no note)."""
        if self.outcome.image is None:
            return "refused"
        text = " ".join(self.notes).lower()
        if "knees up" in text or "medium shot" in text:
            return "medium shot"
        if "moved" in text:
            return "moved"
        return "placed"


def cases(fixtures: Path) -> dict[str, list[Case]]:
    """Per kind of scene, every scene with each of the three people."""
    people = [fixtures / name for name in PEOPLE]
    missing = [str(p) for p in people if not p.is_file()]
    if missing:
        raise SystemExit(f"eval: composites need {', '.join(missing)}")
    by_kind: dict[str, list[Case]] = {}
    for scene in sorted((fixtures / "scenes").glob("*.jpg")):
        by_kind.setdefault(kind_of(scene), []).extend(
            Case("replace_background", person, None, scene, "scenes") for person in people)
    return by_kind


def run(engine: ImageEngine, by_kind: dict[str, list[Case]], load: Loader
        ) -> dict[str, list[Composite]]:
    done: dict[str, list[Composite]] = {}
    for kind, kind_cases in by_kind.items():
        for case in kind_cases:
            with collecting_notes() as notes:
                outcome = run_case(engine, case, load)
            done.setdefault(kind, []).append(Composite(outcome, list(notes)))
    return done


def ground_outline(image: Image.Image, scene: Path) -> Image.Image:
    """`image` (the scene covered to its size) with the scene's labelled ground outlined, when
    the scene has a label; else unchanged."""
    label = scene.with_name(scene.stem + ".ground.png")
    if not label.is_file():
        return image
    mask = np.asarray(Image.open(label).convert("L"))
    covered = cover_like(mask, image.size)
    contours, _ = cv2.findContours((covered > 127).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    rgb = np.array(image.convert("RGB"))  # a writable copy: the outline is drawn on it
    thickness = max(2, image.width // 150)
    cv2.drawContours(rgb, contours, -1, GROUND_OUTLINE, thickness)
    return Image.fromarray(rgb)


def camera_caption(image: Image.Image) -> str:
    """The camera's height the engine read off the scene (engine/camera.py), or that it assumed
    eye level, for the scene's cell."""
    from engine.scene import camera_height

    found = camera_height(np.asarray(image.convert("RGB")))
    return "eye level?" if found is None else f"cam {found:.2f} m"


def cover_like(mask: Image8, size: tuple[int, int]) -> Image8:
    """The mask scaled to cover `size` and centre-cropped, as the engine covers the scene."""
    from engine.compose import cover

    width, height = size
    return cover(np.dstack([mask] * 3), width, height)[..., 0]


def sheet(kind: str, composites: list[Composite], per_row: int) -> Image.Image:
    """One row per scene: its background (ground outlined), then each person's composite."""
    col_w, row_h = CELL_W + PAD, CELL_H + CAPTION_H + PAD
    rows = [composites[i : i + per_row] for i in range(0, len(composites), per_row)]
    counts = tally(composites)
    title = f"composites, {kind}: " + ", ".join(f"{n} {what}" for what, n in counts.items() if n)
    image = Image.new("RGB", (PAD + col_w * (per_row + 1), HEADER_H + row_h * len(rows) + PAD),
                      (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((PAD, 4), title, fill=INK, font=HEADER_FONT)
    draw.text((PAD + 2, 23), "scene (labelled ground in green) | people placed by the engine",
              fill=(120, 120, 120), font=FONT)
    for r, row in enumerate(rows):
        first = row[0].outcome
        scene = first.case.background
        assert isinstance(scene, Path)
        cells: list[tuple[Image.Image | None, str]] = [
            (ground_outline(first.inputs["background"], scene),
             f"{scene.stem}, {camera_caption(first.inputs['background'])}")]
        for item in row:
            outcome = item.outcome
            if outcome.image is None:
                cells.append((error_cell(outcome.error or "failed"), "refused"))
            else:
                cells.append((ground_outline(outcome.image, scene),
                              f"{item.what} {outcome.ms:.0f} ms"))
        draw_row(image, draw, cells, HEADER_H + r * row_h, col_w)
    return image


WHATS = ("placed", "medium shot", "moved", "refused")


def tally(composites: Iterable[Composite]) -> dict[str, int]:
    counts = dict.fromkeys(WHATS, 0)
    for item in composites:
        counts[item.what] += 1
    return counts


def table(done: dict[str, list[Composite]]) -> str:
    """Markdown: per kind of scene, what the engine did with the people placed there, then each
    composite's notes."""
    lines = ["# Composites per kind of scene", "",
             "Background replace of a whole person, a shop shot cut at the head and one cut at "
             "the thighs onto every scenes/ photo. By eye, count publishable / usable with edits / "
             "bad on the sheets.",
             "", "| kind | scenes | cases | " + " | ".join(WHATS) + " |",
             "|---|---:|---:|" + "---:|" * len(WHATS)]
    for kind, made in sorted(done.items()):
        scenes = {c.outcome.case.background for c in made}
        counts = tally(made)
        lines.append(f"| {kind} | {len(scenes)} | {len(made)} | "
                     + " | ".join(str(counts[w]) for w in WHATS) + " |")
    lines += ["", "| scene | person | what | note or refusal |", "|---|---|---|---|"]
    for _, made in sorted(done.items()):
        for c in made:
            scene = c.outcome.case.background
            name = scene.name if isinstance(scene, Path) else str(scene)
            said = " ".join(c.notes) or (c.outcome.error or "")
            lines.append(f"| {name} | {c.outcome.case.photo.name} | {c.what} | "
                         f"{said.replace('|', '/')} |")
    return "\n".join(lines) + "\n"
