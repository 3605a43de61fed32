"""The checkpoints the generative engine needs, and the sha256 manifest that checks them.

Everything lives under ENGINE_WEIGHTS_DIR in the published checkpoints' own layout: one diffusers
folder per model (``config.json`` + ``*.safetensors``), grouped by service:

    tryon/unet/           Stable Diffusion 1.5 inpainting UNet (in_channels 9: latent 4 + mask 1 +
                          masked-image latent 4), the base that CatVTON fine-tunes
    tryon/vae/            its AutoencoderKL
    tryon/attention/      CatVTON's trained self-attention weights (``model.safetensors``, the
                          UNet's attn1 parameters), loaded over the UNet's; CatVTON needs no text
                          or image encoder
    relight/unet/         IC-Light fbc: an SD1.5 UNet whose input convolution is widened to 12
                          channels (latent 4 + foreground latent 4 + background latent 4), stored
                          merged (base + IC-Light's published offsets) so that it loads as is
    relight/vae/          its AutoencoderKL
    relight/text_encoder/ CLIP text encoder and
    relight/tokenizer/    tokenizer: IC-Light's UNet keeps SD1.5's cross-attention and was trained
                          with text prompts (its demo always passes one), so the relight pipeline
                          encodes a prompt

``manifest.json`` in the same folder lists every file's relative path, size and sha256;
:func:`verify` checks them and names each missing or corrupt file.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
CHUNK = 1 << 20  # bytes read at a time while hashing: the real UNets are gigabytes


class WeightsError(RuntimeError):
    """The weights folder is not usable; the message names every missing or corrupt file."""


@dataclass(frozen=True)
class Model:
    """One model folder (or file) under the weights folder."""

    folder: str  # relative to the weights folder, e.g. "tryon/unet"
    kind: str  # the class that loads it
    files: tuple[str, ...]  # the files it must hold, relative to `folder`
    source: str  # where `python -m ops.weights fetch` takes it from (Hugging Face repo id)


WEIGHTS_FILE = "diffusion_pytorch_model.safetensors"
_DIFFUSERS = ("config.json", WEIGHTS_FILE)

MODELS: tuple[Model, ...] = (
    Model("tryon/unet", "UNet2DConditionModel", _DIFFUSERS,
          "stable-diffusion-v1-5/stable-diffusion-inpainting"),
    Model("tryon/vae", "AutoencoderKL", _DIFFUSERS,
          "stable-diffusion-v1-5/stable-diffusion-inpainting"),
    Model("tryon/attention", "safetensors state dict (UNet attn1)", ("model.safetensors",),
          "zhengchong/CatVTON"),
    Model("relight/unet", "UNet2DConditionModel", _DIFFUSERS,
          "stablediffusionapi/realistic-vision-v51 + lllyasviel/ic-light"),
    Model("relight/vae", "AutoencoderKL", _DIFFUSERS, "stablediffusionapi/realistic-vision-v51"),
    Model("relight/text_encoder", "CLIPTextModel", ("config.json", "model.safetensors"),
          "stablediffusionapi/realistic-vision-v51"),
    Model("relight/tokenizer", "CLIPTokenizer", ("tokenizer_config.json",),
          "stablediffusionapi/realistic-vision-v51"),
)

# The UNets' input channels, which the engine's pipelines depend on.
IN_CHANNELS = {"tryon/unet": 9, "relight/unet": 12}


def required_files() -> list[str]:
    """Every file the layout must hold, relative to the weights folder."""
    return [f"{model.folder}/{name}" for model in MODELS for name in model.files]


def sha256_of(path: Path) -> str:
    """The file's sha256, read in chunks (never the whole file in memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def build_manifest(root: Path) -> dict[str, Any]:
    """The manifest of every file under `root` (but the manifest itself), sorted by path."""
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        if relative == MANIFEST:
            continue
        files.append({"path": relative, "size": path.stat().st_size, "sha256": sha256_of(path)})
    return {"version": MANIFEST_VERSION, "files": files}


def write_manifest(root: Path) -> dict[str, Any]:
    """Writes `root`/manifest.json for what `root` holds now, and returns it."""
    manifest = build_manifest(root)
    (root / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def load_manifest(root: Path) -> dict[str, Any]:
    path = root / MANIFEST
    if not path.is_file():
        raise WeightsError(f"{MANIFEST} is missing in {root} (python -m ops.weights fetch or tiny "
                           "writes it)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise WeightsError(f"{MANIFEST} in {root} cannot be read: {error}") from error
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), list):
        raise WeightsError(f"{MANIFEST} in {root} has no list of files")
    return manifest


def verify(root: Path | str) -> int:
    """Checks the weights folder against its manifest: every file the layout needs is listed, and
    every listed file exists with its size and sha256. Returns how many files were checked; raises
    WeightsError naming every missing or corrupt file (one per line) otherwise."""
    root = Path(root)
    manifest = load_manifest(root)
    entries: list[dict[str, Any]] = manifest["files"]
    listed = {str(entry.get("path")) for entry in entries}
    problems = [f"{name} is not in {MANIFEST}" for name in required_files() if name not in listed]
    for entry in entries:
        name = str(entry.get("path"))
        path = root / name
        if not path.is_file():
            problems.append(f"{name} is missing")
        elif path.stat().st_size != entry.get("size"):
            problems.append(f"{name} is {path.stat().st_size} bytes, not the {entry.get('size')} "
                            f"of {MANIFEST} (corrupt or truncated)")
        elif sha256_of(path) != entry.get("sha256"):
            problems.append(f"{name} does not match its sha256 in {MANIFEST} (corrupt)")
    if problems:
        raise WeightsError(f"weights in {root}: " + "\n".join(problems))
    return len(entries)
