"""Loading the try-on model from ``model.safetensors``, every key checked before anything loads.

The published file carries only tensors; it is loaded with the FULL config. Our tiny stand-in
(``python -m ops.weights tiny``) records its own config in the file's metadata under CONFIG_KEY,
and goes through the same code: same class, same key layout, same checks.

A key missing, unexpected, or of another shape than the config's module stops the load (and
`inspect_tryon`, the header-only check the engine runs at start) with a
TryOnWeightsError naming it (a WeightsError, so the worker stops at start with that message).
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import save_file

from engine.diffusion.fashn.config import FULL, TryOnConfig
from engine.diffusion.fashn.model import TryOnMMDiT
from engine.diffusion.weights import WeightsError

CONFIG_KEY = "metamodel.tryon_config"
SHOWN = 5  # keys named per kind of problem; the rest are counted


class TryOnWeightsError(WeightsError):
    """model.safetensors does not fit the model: the message names the keys."""


def config_of(metadata: dict[str, str] | None) -> TryOnConfig:
    """The config a file was written for: its metadata's, or the published model's."""
    recorded = (metadata or {}).get(CONFIG_KEY)
    if recorded is None:
        return FULL
    values: dict[str, Any] = json.loads(recorded)
    known = {f.name for f in fields(TryOnConfig)}
    values = {key: tuple(value) if isinstance(value, list) else value
              for key, value in values.items() if key in known}
    return TryOnConfig(**values)


def _named(label: str, keys: list[str]) -> str:
    more = f" and {len(keys) - SHOWN} more" if len(keys) > SHOWN else ""
    return f"{label}: {', '.join(keys[:SHOWN])}{more}"


def check_keys(expected: dict[str, tuple[int, ...]], found: dict[str, tuple[int, ...]],
               path: Path) -> None:
    """Raises TryOnWeightsError naming every missing, misshapen and unexpected key."""
    missing = sorted(set(expected) - set(found))
    unexpected = sorted(set(found) - set(expected))
    misshapen = sorted(f"{key} is {list(found[key])}, not {list(expected[key])}"
                       for key in set(expected) & set(found) if found[key] != expected[key])
    problems = [_named(label, keys) for label, keys in (
        ("missing", missing), ("misshapen", misshapen), ("unexpected", unexpected)) if keys]
    if problems:
        raise TryOnWeightsError(f"{path} does not fit the try-on model: " + "; ".join(problems))


def inspect_tryon(path: Path | str) -> TryOnConfig:
    """The config `path` was written for, after checking every key and shape against the module
    it builds. Reads the file's header only (milliseconds for the 2 GB file, no tensor): the
    worker's start check."""
    path = Path(path)
    if not path.is_file():
        raise TryOnWeightsError(f"{path} is missing")
    try:
        with safe_open(str(path), framework="pt") as handle:
            config = config_of(handle.metadata())
            # safe_open handles are not iterable: .keys() is their API
            found = {key: tuple(handle.get_slice(key).get_shape())
                     for key in handle.keys()}  # noqa: SIM118
    except (OSError, ValueError, SafetensorError) as error:  # unreadable header or metadata
        raise TryOnWeightsError(f"{path} cannot be read: {error}") from error
    check_keys(_shapes(config), found, path)
    return config


def _shapes(config: TryOnConfig) -> dict[str, tuple[int, ...]]:
    with torch.device("meta"):  # shapes only: nothing allocated
        model = TryOnMMDiT(config)
    return {key: tuple(value.shape) for key, value in model.state_dict().items()}


def load_tryon(path: Path | str, device: torch.device | str = "cpu",
               dtype: torch.dtype = torch.float32) -> TryOnMMDiT:
    """The try-on model with `path`'s weights, on `device` in `dtype`, in eval mode, frozen.
    The module is built on the meta device (no memory) and materialised from the file."""
    config = inspect_tryon(path)
    with torch.device("meta"):
        model = TryOnMMDiT(config)
    try:
        with safe_open(str(path), framework="pt") as handle:
            state = {key: handle.get_tensor(key).to(device=device, dtype=dtype)
                     for key in model.state_dict()}
    except (OSError, SafetensorError) as error:  # truncated data behind a sound header
        raise TryOnWeightsError(f"{path} cannot be read: {error}") from error
    model.load_state_dict(state, strict=True, assign=True)
    model.eval().requires_grad_(False)
    return model


def save_tryon(model: TryOnMMDiT, path: Path | str) -> None:
    """Writes `model` in the published layout, its config in the metadata (for non-FULL sizes)."""
    metadata = None if model.config == FULL else {CONFIG_KEY: json.dumps(asdict(model.config))}
    state = {key: value.detach().contiguous() for key, value in model.state_dict().items()}
    save_file(state, str(path), metadata=metadata)
