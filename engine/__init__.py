"""The image engine: plain Python behind core.engine.ImageEngine (no Temporal, no FastAPI).

`build_engine("cpu")` is the built-in engine on mediapipe 0.10.14's bundled models and OpenCV;
`build_engine("remote", url)` talks to a GPU inference service over HTTP (engine/remote.py);
`build_engine("diffusion", diffusion=...)` is the generative engine for GPU imaging workers
(engine/diffusion; torch and diffusers, in the imaging environment only).
"""

from __future__ import annotations

from PIL import Image

from core.engine import ImageEngine
from engine import analysis
from engine.cpu import CpuEngine, to_array
from engine.diffusion.settings import DiffusionSettings

__all__ = ["CpuEngine", "build_engine", "count_people"]


def count_people(photo: Image.Image) -> int:
    """How many people a photo shows (0 when none is clearly visible), on the bundled models:
    the catalog's check that a digital model's photo shows exactly one person."""
    return analysis.count_people(to_array(photo))


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
