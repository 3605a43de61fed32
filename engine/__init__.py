"""The image engine: plain Python behind core.engine.ImageEngine (no Temporal, no FastAPI).

`build_engine("cpu")` is the built-in engine on mediapipe 0.10.14's bundled models and OpenCV;
`build_engine("remote", url)` talks to a GPU inference service over HTTP (engine/remote.py);
`build_engine("diffusion", diffusion=...)` is the generative engine for GPU imaging workers
(engine/diffusion; torch and diffusers, in the imaging environment only).

This module is the engine's one public surface for the product's layers (activities/, and
through core's interface everything above): the factory, and the photo analysis the engines
share. Its modules are internals; `make lint` (import-linter) keeps activities/, workflows/,
api/ and core/ from importing them. ops/ (the worker's composition root, benchmarks, the
evaluation) and the tests may reach inside.
"""

from __future__ import annotations

from PIL import Image

from core.engine import ImageEngine
from core.photos.analysis import PhotoAnalysis
from core.photos.tone_match import Lab, lab_from_opencv
from engine import analysis
from engine.cpu import CpuEngine, to_array
from engine.diffusion.settings import DiffusionSettings
from engine.digital_model import digital_model

__all__ = ["CpuEngine", "analyse_photo", "build_engine", "count_people", "model_skin_tone"]


def count_people(photo: Image.Image) -> int:
    """How many people a photo shows (0 when none is clearly visible), on the bundled models:
    the catalog's check that a digital model's photo shows exactly one person."""
    return analysis.count_people(to_array(photo))


def analyse_photo(photo: Image.Image) -> PhotoAnalysis:
    """What an uploaded photo shows and which services it can become (core/photos/analysis.py),
    on the photo as the engine will render it (capped at the engine's size)."""
    # Imported here: the analysis loads the garment classifier, which `import engine` need not.
    from engine.photo_analysis import analyse_photo as analyse

    return analyse(to_array(photo))


def model_skin_tone(photo: Image.Image) -> Lab | None:
    """A digital model's skin tone in CIE Lab, measured exactly as the engine measures the model
    it swaps to; None when no skin could be read. EngineError when no face is found."""
    tone = digital_model(to_array(photo)).tone
    return None if tone is None else lab_from_opencv(tone)


def build_engine(
    kind: str,
    remote_url: str | None = None,
    timeout_seconds: float = 120.0,
    diffusion: DiffusionSettings | None = None,
) -> ImageEngine:
    if kind == "cpu":
        return CpuEngine()
    if kind == "remote":
        if not remote_url:
            raise ValueError("ENGINE=remote needs ENGINE_URL")
        from engine.remote import RemoteEngine

        return RemoteEngine(remote_url, timeout_seconds=timeout_seconds)
    if kind == "diffusion":
        if diffusion is None or not str(diffusion.weights_dir):
            raise ValueError("ENGINE=diffusion needs ENGINE_WEIGHTS_DIR")
        # torch and diffusers: only the imaging environment has them (.venv-imaging).
        from engine.diffusion.engine import DiffusionEngine

        return DiffusionEngine(diffusion)
    raise ValueError(f"unknown engine {kind!r}: use 'cpu', 'remote' or 'diffusion'")
