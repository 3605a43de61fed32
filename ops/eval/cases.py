"""`make eval`'s cases: which photo runs through which operation with which model and
background (every fixture category, for both operations), and what came of each run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image


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


def jpgs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jpg"))


def build_cases(fixtures: Path) -> tuple[list[Case], list[Case]]:
    people = jpgs(fixtures / "people")
    garments = jpgs(fixtures / "garments")
    wild = jpgs(fixtures / "people-wild")
    backgrounds = jpgs(fixtures / "backgrounds")
    models = jpgs(fixtures / "catalog-models")
    missing = [name for name, found in (("people", people), ("garments", garments),
                                        ("backgrounds", backgrounds),
                                        ("catalog-models", models)) if not found]
    if missing:
        raise SystemExit(f"eval: no fixture photos in {fixtures} for {', '.join(missing)} "
                         "(set FIXTURES_DIR)")
    backs = jpgs(fixtures / "people-back")
    scenes = jpgs(fixtures / "scenes")
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
