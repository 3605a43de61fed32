"""The output gate's calibration: the artefact gate's scores (engine/diffusion/gate.py) on the
fixture photos and on what a weights folder's models generate, and the fidelity checks' scores
(engine/diffusion/fidelity) on faithful and broken try-ons made from the fixture photos.

    python -m ops.gate_scores                       # the photos (any environment: numpy)
    .venv-imaging/bin/python -m ops.gate_scores --weights DIR [--steps 6]
                                                    # and the models' raw outputs (torch)
    python -m ops.gate_scores --fidelity [--pairs N]
                                                    # the fidelity checks (ops/gate_scores_fidelity)

The photos are fitted into each working size as the engine fits a photo (engine/diffusion/frames,
no padding: the box the gate scores); the models' outputs are the denoised frames before any
paste-back, try-on and relight, on fixture inputs, two seeds each.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from engine.arrays import Image8
from engine.diffusion import gate
from engine.diffusion.frames import fit_box
from ops.seed import fixtures_dir

FOLDERS = ("people", "catalog-models", "backgrounds", "people-wild", "people-back", "scenes")
SIZES = ((48, 64), (96, 128), (768, 1024))
SCORES = ("contrast", "smoothness", "channel_agreement")


def photos(folder: str) -> list[Path]:
    """The folder's photos (not the masks some scenes come with)."""
    return sorted(p for p in (fixtures_dir() / folder).iterdir()
                  if p.suffix.lower() in (".jpg", ".jpeg", ".png", ".webp")
                  and ".ground" not in p.name and ".mask" not in p.name)


def fitted(rgb: Image8, size: tuple[int, int]) -> Image8:
    box = fit_box(rgb.shape, size)
    return np.asarray(cv2.resize(rgb, (box.width, box.height), interpolation=cv2.INTER_AREA))


def photo_reports(size: tuple[int, int],
                  folders: Iterable[str] = FOLDERS) -> dict[str, list[gate.GateReport]]:
    """Each folder's photos scored at working size `size`."""
    return {folder: [gate.score(fitted(np.asarray(Image.open(path).convert("RGB")), size))
                     for path in photos(folder)] for folder in folders}


def model_outputs(weights: Path, size: tuple[int, int], steps: int) -> list[tuple[str, Image8]]:
    """The raw denoised frames of the models in `weights` on fixture inputs (two seeds each)."""
    from engine.diffusion.batching import Job, wait
    from engine.diffusion.engine import DiffusionEngine
    from engine.diffusion.settings import DiffusionSettings

    # Calibrated on CatVTON's try-on jobs (below); FASHN's scores: tests/imaging/test_fashn_engine
    engine = DiffusionEngine(DiffusionSettings(weights, size=size, steps=steps, tryon="catvton"))
    width, height = size

    def frame(path: Path) -> Image8:
        return np.asarray(Image.open(path).convert("RGB").resize((width, height)))

    mask = np.zeros((height, width), bool)
    mask[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4] = True
    outputs = []
    try:
        for index, (person, model, scene) in enumerate(zip(
                photos("people")[:3], photos("catalog-models")[:3], photos("scenes")[:3],
                strict=True)):
            for seed in (index, 100 + index):
                for operation, payload in (
                    ("tryon", {"person": frame(model), "garment": frame(person), "mask": mask}),
                    ("relight", {"subject": frame(person), "scene": frame(scene)}),
                ):
                    job = Job((operation, width, height, steps),
                              {**payload, "operation": operation}, seed=seed, steps=steps)
                    outputs.append((operation, wait(engine.batcher.submit(job), lambda _s: None)))
    finally:
        engine.close()
    return outputs


def line(label: str, reports: list[gate.GateReport]) -> str:
    cells = []
    for name in SCORES:
        values = [float(getattr(report, name)) for report in reports]
        cells.append(f"{name} {min(values):7.3f}..{max(values):7.3f}")
    refused = sum(not report.passed for report in reports)
    return f"{label:<30} n={len(reports):>2}  " + "  ".join(cells) + f"  refused {refused}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.gate_scores", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--weights", type=Path, help="a weights folder whose outputs to score")
    parser.add_argument("--steps", type=int, default=6)
    parser.add_argument("--fidelity", action="store_true",
                        help="the fidelity checks' scores instead of the artefact gate's")
    parser.add_argument("--pairs", type=int, default=14,
                        help="with --fidelity: garment photos put on each catalog model")
    args = parser.parse_args(argv)
    if args.fidelity:
        return fidelity_scores(args.pairs)
    print(f"limits: contrast >= {gate.MIN_CONTRAST}, smoothness >= {gate.MIN_SMOOTHNESS}, "
          f"channel_agreement >= {gate.MIN_CHANNEL_AGREEMENT}")
    for size in SIZES:
        for folder, reports in photo_reports(size).items():
            print(line(f"{folder} {size[0]}x{size[1]}", reports))
    if args.weights is not None:
        for size in SIZES[:2]:
            outputs = model_outputs(args.weights, size, args.steps)
            for operation in ("tryon", "relight"):
                reports = [gate.score(image) for op, image in outputs if op == operation]
                print(line(f"weights {operation} {size[0]}x{size[1]}", reports))
    return 0


def fidelity_scores(garments: int) -> int:
    from engine.diffusion import fidelity
    from ops import gate_scores_fidelity as calibration

    print(f"limits: garment_colour <= {fidelity.MAX_GARMENT_COLOUR}, garment_pattern >= "
          f"{fidelity.MIN_GARMENT_PATTERN}, print_survival >= {fidelity.MIN_PRINT}, "
          f"face >= {fidelity.MIN_FACE}, skin <= {fidelity.MAX_SKIN}, proportions <= "
          f"{fidelity.MAX_PROPORTION_CHANGE}, outline >= {fidelity.MIN_OUTLINE}")
    rows = calibration.measure(list(calibration.cases(garments=garments)))
    print("\n".join(calibration.summary(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
