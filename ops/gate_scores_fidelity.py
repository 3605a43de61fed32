"""The fidelity gate's calibration (engine/diffusion/fidelity): its scores on faithful and on
deliberately broken try-ons made from the fixture photos (numpy, OpenCV, mediapipe: any
environment).

    python -m ops.gate_scores --fidelity

No real try-on output exists here, so the faithful cases stand in for one, each as the engine
would deliver it (the model photo's size, the try-on region resampled through FASHN's native
576x864 frame and pasted back with the engine's feather):
- "outfit": a photo of a dressed person, its outfit as the garment (model swap (a)), the person
  as the digital model: the try-on gives the outfit back;
- "garment": a garment photo's garment warped onto a catalog model's torso (the box from the
  shoulders to the hips) inside the try-on region (model swap (b)).
The broken cases change one thing of a faithful output: the garment recoloured, the garment a
flat patch of its own mean colour, its print blurred away, the face blurred, the face another
person's, the skin recoloured, the upper arms and chest stretched (the rest squeezed), the
region filled with noise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from engine import models
from engine.analysis import swap_subject
from engine.arrays import BoolMask, Float32, Image8
from engine.diffusion import frames, masks
from engine.diffusion.fidelity import FidelityReport, Reference, score
from engine.digital_model import Person, analyse_person
from engine.swap_garment import TOP, classify_garment
from ops.seed import fixtures_dir

STRETCH = 2.0  # the stretched case: upper arms and chest this much taller
NATIVE = (576, 864)  # FASHN's frame: the generated region has this resolution at most
FEATHER = 0.004  # engine.diffusion.engine.FEATHER
BROKEN = ("recoloured", "flat_patch", "print_blurred", "face_blurred", "face_replaced",
          "skin_recoloured", "stretched", "noise")
# What each broken case must be refused for (the other scores may refuse it too).
EXPECTED = {"recoloured": "garment_colour", "flat_patch": "garment_pattern",
            "print_blurred": "print",
            "face_blurred": "face", "face_replaced": "face", "skin_recoloured": "skin",
            "stretched": "proportions", "noise": "garment_colour"}


@dataclass(frozen=True)
class Case:
    name: str  # "outfit <photo>" or "garment <garment photo> on <model photo>"
    reference: Reference
    output: Image8  # the faithful try-on
    area: BoolMask  # where the garment is in it


def load(path: Path) -> Image8:
    return np.asarray(Image.open(path).convert("RGB"))


def photos(folder: str) -> list[Path]:
    return sorted((fixtures_dir() / folder).glob("*.jpg"))


def as_generated(person: Image8, dressed: Image8, region: BoolMask) -> Image8:
    """`dressed` as the engine would deliver it: resampled through the native frame, pasted
    inside `region` of `person` with the engine's feather."""
    box = frames.fit_box(dressed.shape, NATIVE)
    small = cv2.resize(dressed, (box.width, box.height), interpolation=cv2.INTER_AREA)
    back = frames.unletterbox(np.asarray(small, np.uint8), frames.Box(0, 0, box.width,
                                                                      box.height), dressed.shape)
    weight = frames.inner_feather(region, FEATHER * max(region.shape))
    return frames.paste_inside(person, back, weight)


def outfit_case(path: Path) -> Case:
    rgb = load(path)
    person = analyse_person(rgb, swap_subject(rgb))
    worn = masks.worn_garment(person) > 0.5
    region = masks.tryon_mask(person, masks.OUTFIT)
    reference = Reference(rgb, worn, person, region)
    return Case(f"outfit {path.name}", reference, as_generated(rgb, rgb, region), worn & region)


def torso_box(person: Person) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): shoulders to hips, widened as the try-on region's torso is."""
    p = person.pose.points
    points = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER, models.LEFT_HIP, models.RIGHT_HIP]]
    unit = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    return (int(x0 - 0.3 * unit), int(y0 - 0.15 * unit), int(x1 + 0.3 * unit),
            int(y1 + 0.15 * unit))


def garment_case(garment_path: Path, model_path: Path, person: Person) -> Case:
    rgb = load(garment_path)
    alpha = swap_subject(rgb).cutout.alpha
    found = classify_garment(alpha)
    kind = found.kind if found.kind in masks.UPPER_KINDS else TOP
    solid = alpha > 0.5
    ys, xs = np.nonzero(solid)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    bx0, by0, bx1, by1 = torso_box(person)
    h, w = person.rgb.shape[:2]
    source = np.array([[x0, y0], [x1, y0], [x0, y1]], np.float32)
    target = np.array([[bx0, by0], [bx1, by0], [bx0, by1]], np.float32)
    warp = cv2.getAffineTransform(source, target)
    placed = cv2.warpAffine(rgb, warp, (w, h), flags=cv2.INTER_LINEAR)
    placed_alpha = cv2.warpAffine(alpha.astype(np.float32), warp, (w, h)) > 0.5
    region = masks.tryon_mask(person, kind)
    # What the garment does not reach of the region (the model's own top) is repainted as the
    # backdrop, as the try-on would; the model's skin stays.
    backdrop = np.median(np.concatenate([person.rgb[0], person.rgb[:, 0], person.rgb[:, -1]]),
                         axis=0)
    bare = region & ~placed_alpha & ~(person.skin > 0.5)
    dressed = np.where(placed_alpha[..., None], placed, person.rgb)
    dressed[bare] = np.asarray(backdrop + 0.5, np.uint8)
    reference = Reference(rgb, solid, person, region)
    return Case(f"garment {garment_path.name} on {model_path.name}", reference,
                as_generated(person.rgb, dressed, region), placed_alpha & region)


def _lab_edit(rgb: Image8, where: BoolMask, edit: Callable[[Float32], Float32]) -> Image8:
    lab = np.asarray(cv2.cvtColor(rgb.astype(np.float32) / 255.0, cv2.COLOR_RGB2LAB), np.float32)
    lab[where] = edit(lab[where])
    back = cv2.cvtColor(lab, cv2.COLOR_LAB2RGB)
    return np.asarray(np.clip(back * 255.0 + 0.5, 0, 255), np.uint8)


def recolour(lab: Float32) -> Float32:
    """Hue turned by 120 degrees and pushed towards violet: another colour, white included."""
    a, b = lab[:, 1].copy(), lab[:, 2].copy()
    turn = np.radians(120.0)
    lab[:, 1] = a * np.cos(turn) - b * np.sin(turn) + 30.0
    lab[:, 2] = a * np.sin(turn) + b * np.cos(turn) - 30.0
    return lab


def broken(case: Case, kind: str, other_face: Image8 | None = None) -> Image8:
    """The faithful output of `case` broken in one way (BROKEN)."""
    out, area, person = case.output.copy(), case.area, case.reference.person
    rng = np.random.default_rng(35)
    if kind == "recoloured":
        return _lab_edit(out, area, recolour)
    if kind == "print_blurred":
        # The garment's print and pattern smeared away, its colours kept.
        ys, xs = np.nonzero(area)
        sigma = 0.02 * float(np.hypot(np.ptp(ys), np.ptp(xs)))
        soft = cv2.GaussianBlur(out, (0, 0), sigma)
        out[area] = soft[area]
        return out
    if kind == "flat_patch":
        out[area] = np.asarray(out[area].mean(axis=0) + 0.5, np.uint8)
        return out
    if kind == "noise":
        region = case.reference.region
        out[region] = rng.integers(0, 256, (int(region.sum()), 3), dtype=np.uint8)
        return out
    if kind == "skin_recoloured":
        return _lab_edit(out, case.reference.skin_band,
                         lambda lab: np.asarray(lab + np.array([-20.0, -25.0, 10.0], np.float32)))
    if kind == "stretched":
        # The band from the shoulders to the elbows (upper arms, chest) made STRETCH times
        # taller, what is below squeezed to fit: the whole body stays in the frame.
        p = person.pose.points
        top = int(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
        elbows = int(p[[models.LEFT_ELBOW, models.RIGHT_ELBOW], 1].mean())
        height, width = out.shape[:2]
        tall = min(height - 8, top + int((elbows - top) * STRETCH))
        band = cv2.resize(out[top:elbows], (width, tall - top), interpolation=cv2.INTER_LINEAR)
        rest = cv2.resize(out[elbows:], (width, height - tall), interpolation=cv2.INTER_AREA)
        out[top:tall], out[tall:] = band, rest
        return out
    assert person.face is not None
    from engine.diffusion.fidelity.person import face_box

    x0, y0, x1, y1 = face_box(person.face, out.shape)
    if kind == "face_blurred":
        sigma = (x1 - x0) / 12.0
        out[y0:y1, x0:x1] = cv2.GaussianBlur(np.ascontiguousarray(out[y0:y1, x0:x1]), (0, 0),
                                             sigma)
        return out
    if kind == "face_replaced":
        assert other_face is not None
        out[y0:y1, x0:x1] = cv2.resize(other_face, (x1 - x0, y1 - y0),
                                       interpolation=cv2.INTER_AREA)
        return out
    raise ValueError(kind)


def face_of(person: Person) -> Image8:
    assert person.face is not None
    from engine.diffusion.fidelity.person import face_box

    x0, y0, x1, y1 = face_box(person.face, person.rgb.shape)
    return np.ascontiguousarray(person.rgb[y0:y1, x0:x1])


def cases(outfits: int = 4, models_: int = 6, garments: int = 14) -> Iterator[Case]:
    """Faithful cases: `outfits` people photos' outfits, every pair of `models_` catalog models
    and `garments` garment photos."""
    for path in photos("people")[:outfits]:
        yield outfit_case(path)
    for model_path in photos("catalog-models")[:models_]:
        rgb = load(model_path)
        person = analyse_person(rgb, swap_subject(rgb))
        for garment_path in photos("garments")[:garments]:
            yield garment_case(garment_path, model_path, person)


def measure(selected: list[Case]) -> list[tuple[str, str, FidelityReport]]:
    """(case, variant, report) for each faithful case and each of its broken variants (the
    face's only where the analysis found a face)."""
    rows = []
    people = list({id(case.reference.person): case.reference.person for case in selected
                   if case.reference.person.face is not None}.values())
    for case in selected:
        rows.append((case.name, "faithful", score(case.output, case.reference)))
        person = case.reference.person
        # Another person's face for the face_replaced case (the next photo's).
        others = [p for p in people[1 + next((i for i, p in enumerate(people) if p is person),
                                             -1):] + people if p is not person]
        for kind in BROKEN:
            if kind.startswith("face") and (person.face is None or not others):
                continue
            image = broken(case, kind, face_of(others[0]) if others else None)
            rows.append((case.name, kind, score(image, case.reference)))
    return rows


def summary(rows: list[tuple[str, str, FidelityReport]]) -> list[str]:
    """One line per variant: each score's range, and how many were refused (and for what)."""
    lines = []
    names = ("garment_colour", "garment_pattern", "print_survival", "face", "skin", "proportions",
             "outline")
    for variant in ("faithful", *BROKEN):
        reports = [report for _, kind, report in rows if kind == variant]
        cells = []
        for name in names:
            values = [float(v) for r in reports if (v := getattr(r, name)) is not None]
            cells.append(f"{name} {min(values):.3g}..{max(values):.3g}" if values
                         else f"{name} -")
        refused = sum(not r.passed for r in reports)
        expected = EXPECTED.get(variant)
        caught = sum(expected in r.failures for r in reports) if expected else 0
        lines.append(f"{variant:<16} n={len(reports):>3} refused {refused:>3}"
                     + (f" (for {expected}: {caught})" if expected else "")
                     + "  " + "  ".join(cells))
    return lines


__all__ = ["BROKEN", "EXPECTED", "Case", "broken", "cases", "measure", "summary"]
