"""The image engine: plain Python behind core.engine.ImageEngine (no Temporal, no FastAPI).

`build_engine("cpu")` is the built-in engine on mediapipe 0.10.14's bundled models and OpenCV;
`build_engine("remote", url)` talks to a GPU inference service over HTTP (engine/remote.py).
"""

from __future__ import annotations

from core.engine import ImageEngine
from engine.cpu import CpuEngine

__all__ = ["CpuEngine", "build_engine"]


def build_engine(
    kind: str, remote_url: str | None = None, timeout_seconds: float = 120.0
) -> ImageEngine:
    if kind == "cpu":
        return CpuEngine()
    if kind == "remote":
        if not remote_url:
            raise ValueError("ENGINE=remote needs ENGINE_URL")
        from engine.remote import RemoteEngine

        return RemoteEngine(remote_url, timeout_seconds=timeout_seconds)
    raise ValueError(f"unknown engine {kind!r}: use 'cpu' or 'remote'")
