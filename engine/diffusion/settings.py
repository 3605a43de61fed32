"""The generative engine's settings (plain Python: the worker builds them without torch)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DiffusionSettings:
    weights_dir: Path
    size: tuple[int, int] = (768, 1024)  # working width and height
    steps: int = 30
    max_batch: int = 8
    batch_window: float = 0.005  # seconds a batch waits for more requests of its kind
    device: str = "auto"
    dtype: str = "auto"
    seed: int = 0
    compile: bool = False


__all__ = ["DiffusionSettings"]
