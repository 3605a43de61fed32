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
    fashn/model.safetensors  FASHN VTON v1.5's try-on MMDiT (Apache-2.0, commercial use allowed),
                          the published file as it is: engine/diffusion/fashn loads and checks it
    dwpose/detector/yolox_l.onnx     the person detector and
    dwpose/pose/dw-ll_ucoco_384.onnx the whole-body pose model that the try-on's pose drawing
                          comes from, as DWPose's authors publish them; onnxruntime runs them
                          (engine/diffusion/fashn/dwpose.py checks their interface)

``manifest.json`` in the same folder lists every file's relative path, size and sha256, and where
it comes from and under which licence (:class:`Licence`: SPDX id, whether it allows commercial use,
why); :func:`verify` checks the files and names each missing or corrupt one, and
:func:`check_licences` names each file a worker may not load for commercial use.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MANIFEST = "manifest.json"
# 2: each file's source, licence, commercial use and note (a version-1 manifest has none, and
# reads as "unknown, not for commercial use").
MANIFEST_VERSION = 2
CHUNK = 1 << 20  # bytes read at a time while hashing: the real UNets are gigabytes


class WeightsError(RuntimeError):
    """The weights folder is not usable; the message names every missing or corrupt file."""


class LicenceError(WeightsError):
    """A file's licence does not let this worker load it; the message names file and licence."""


@dataclass(frozen=True)
class Licence:
    """Under which terms a file may be used. `spdx` is the SPDX licence id where one exists
    ("unknown" where nobody has established it); `commercial` is whether a shop may sell what
    the model makes, never assumed: unknown is False."""

    spdx: str
    commercial: bool
    note: str  # one line: why (which file or page says so)


UNKNOWN = Licence("unknown", False, "no licence recorded for this file: not for commercial use")

# Read from each model's own Hugging Face card (the `license:` metadata), as the search tool
# stored the pages; README "The real checkpoints" has the details. Check again before launch.
SD15_INPAINTING_LICENCE = Licence(
    "CreativeML-OpenRAIL-M", True,
    "the repo's card: CreativeML OpenRAIL-M allows commercial use; its use restrictions "
    "(Attachment A) must be passed on to users")
CATVTON_LICENCE = Licence(
    "CC-BY-NC-SA-4.0", False,
    "CatVTON's card and repository: CC BY-NC-SA 4.0, non-commercial")
REALISTIC_VISION_LICENCE = Licence(
    "CreativeML-OpenRAIL-M", True,
    "this repo's card and its author's (SG161222/Realistic_Vision_V5.1_noVAE): CreativeML "
    "OpenRAIL-M; its use restrictions must be passed on to users")
# The GitHub repository's LICENSE file (Apache License 2.0) and its README ("License: Apache-2.0",
# code and the weights it downloads from Hugging Face fashn-ai/fashn-vton-1.5).
FASHN_LICENCE = Licence(
    "Apache-2.0", True,
    "fashn-AI/fashn-vton-1.5 on GitHub: LICENSE is Apache 2.0 and its README says the model "
    "(code and weights) is Apache-2.0")
# DWPose's ONNX pair, read from their own files: IDEA-Research/DWPose's LICENSE (Apache License
# 2.0, on its onnx branch too, whose README links the authors' Hugging Face repo yzd-v/DWPose for
# these two files), that repo's card (`license: apache-2.0`), and YOLOX's LICENSE (Megvii,
# Apache License 2.0). fashn-ai/DWPose, which the try-on reference downloads, mirrors the same
# two files (same sizes, 134 MB and 217 MB) with no licence on its card: we take the authors'.
DWPOSE_LICENCE = Licence(
    "Apache-2.0", True,
    "IDEA-Research/DWPose on GitHub: LICENSE is Apache 2.0; its Hugging Face repo yzd-v/DWPose "
    "says license: apache-2.0")
YOLOX_LICENCE = Licence(
    "Apache-2.0", True,
    "Megvii-BaseDetection/YOLOX's LICENSE is Apache 2.0; DWPose publishes this export in "
    "yzd-v/DWPose, license: apache-2.0")
RELIGHT_UNET_LICENCE = Licence(
    "CreativeML-OpenRAIL-M", True,
    "merged from Realistic Vision's UNet and IC-Light's fbc offsets, both CreativeML "
    "OpenRAIL-M on their cards (IC-Light's code on GitHub is Apache-2.0)")


@dataclass(frozen=True)
class Model:
    """One model folder (or file) under the weights folder."""

    folder: str  # relative to the weights folder, e.g. "tryon/unet"
    kind: str  # the class that loads it
    files: tuple[str, ...]  # the files it must hold, relative to `folder`
    source: str  # where `python -m ops.weights fetch` takes it from (Hugging Face repo id)
    licence: Licence
    origin: str = ""  # the folder inside the source repo its files come from
    # (our file name, where it comes from) for the files not at `source`:`origin`/name
    renamed: tuple[tuple[str, str], ...] = ()
    # The try-on model (DIFFUSION_TRYON) that loads this folder; None: loaded whichever it is
    # (the relight's). A worker checks, and a production worker licenses, only what it loads.
    tryon: str | None = None

    def loaded_with(self, tryon: str | None) -> bool:
        """Whether a worker running try-on `tryon` loads this model (None: any worker)."""
        return tryon is None or self.tryon in (None, tryon)

    def source_of(self, name: str) -> str:
        """Where file `name` of this folder comes from: "repo id:path in the repo"."""
        for ours, theirs in self.renamed:
            if ours == name:
                return theirs
        return f"{self.source}:{self.origin}/{name}" if self.origin else f"{self.source}:{name}"


WEIGHTS_FILE = "diffusion_pytorch_model.safetensors"
_DIFFUSERS = ("config.json", WEIGHTS_FILE)
_SD15_INPAINTING = "stable-diffusion-v1-5/stable-diffusion-inpainting"
_REALISTIC_VISION = "stablediffusionapi/realistic-vision-v51"
_FP16_WEIGHTS = "diffusion_pytorch_model.fp16.safetensors"  # renamed by fetch
# The try-on models (DIFFUSION_TRYON): FASHN's (Apache-2.0, the default) or CatVTON's (CC BY-NC-SA:
# only behind ALLOW_NON_COMMERCIAL_WEIGHTS, never in production).
FASHN = "fashn"
CATVTON = "catvton"
FASHN_SOURCE = "fashn-ai/fashn-vton-1.5"  # Hugging Face; the code is github fashn-AI/fashn-vton-1.5
FASHN_WEIGHTS = "fashn/model.safetensors"
DWPOSE_SOURCE = "yzd-v/DWPose"  # Hugging Face, DWPose's first author's; code: IDEA-Research/DWPose
DWPOSE_DETECTOR = "dwpose/detector/yolox_l.onnx"
DWPOSE_POSE = "dwpose/pose/dw-ll_ucoco_384.onnx"

MODELS: tuple[Model, ...] = (
    Model("tryon/unet", "UNet2DConditionModel", _DIFFUSERS, _SD15_INPAINTING,
          SD15_INPAINTING_LICENCE, "unet",
          ((WEIGHTS_FILE, f"{_SD15_INPAINTING}:unet/{_FP16_WEIGHTS}"),), CATVTON),
    Model("tryon/vae", "AutoencoderKL", _DIFFUSERS, _SD15_INPAINTING, SD15_INPAINTING_LICENCE,
          "vae", ((WEIGHTS_FILE, f"{_SD15_INPAINTING}:vae/{_FP16_WEIGHTS}"),), CATVTON),
    Model("tryon/attention", "safetensors state dict (UNet attn1)", ("model.safetensors",),
          "zhengchong/CatVTON", CATVTON_LICENCE, "mix-48k-1024/attention", tryon=CATVTON),
    Model("relight/unet", "UNet2DConditionModel", _DIFFUSERS,
          f"{_REALISTIC_VISION} + lllyasviel/ic-light", RELIGHT_UNET_LICENCE,
          renamed=(
              ("config.json", f"{_REALISTIC_VISION}:unet/config.json (in_channels 12)"),
              (WEIGHTS_FILE, f"{_REALISTIC_VISION}:unet/{WEIGHTS_FILE} + "
                             "lllyasviel/ic-light:iclight_sd15_fbc.safetensors, merged"),
          )),
    Model("relight/vae", "AutoencoderKL", _DIFFUSERS, _REALISTIC_VISION,
          REALISTIC_VISION_LICENCE, "vae"),
    Model("relight/text_encoder", "CLIPTextModel", ("config.json", "model.safetensors"),
          _REALISTIC_VISION, REALISTIC_VISION_LICENCE, "text_encoder"),
    Model("relight/tokenizer", "CLIPTokenizer", ("tokenizer_config.json",),
          _REALISTIC_VISION, REALISTIC_VISION_LICENCE, "tokenizer"),
    Model("fashn", "TryOnMMDiT (engine/diffusion/fashn)", ("model.safetensors",), FASHN_SOURCE,
          FASHN_LICENCE, tryon=FASHN),
    # Two folders, one file each: a model's files share its licence and source (model_of).
    Model("dwpose/detector", "YOLOX-L person detector, ONNX (engine/diffusion/fashn/dwpose.py)",
          ("yolox_l.onnx",), DWPOSE_SOURCE, YOLOX_LICENCE, tryon=FASHN),
    Model("dwpose/pose", "DWPose-l whole-body pose, ONNX (engine/diffusion/fashn/dwpose.py)",
          ("dw-ll_ucoco_384.onnx",), DWPOSE_SOURCE, DWPOSE_LICENCE, tryon=FASHN),
)
TINY_SOURCE = "random stand-in (ops.weights tiny) for "

# The UNets' input channels, which the engine's pipelines depend on.
IN_CHANNELS = {"tryon/unet": 9, "relight/unet": 12}


def required_files(tryon: str | None = None) -> list[str]:
    """Every file the layout must hold, relative to the weights folder: for a worker running
    try-on `tryon`, the files it loads; with None, the whole layout."""
    return [f"{model.folder}/{name}" for model in MODELS if model.loaded_with(tryon)
            for name in model.files]


def loaded(relative: str, tryon: str | None) -> bool:
    """Whether a worker running try-on `tryon` loads file `relative` (a file outside the
    layout's models counts as loaded: nothing unknown is let through unchecked)."""
    model = model_of(relative)
    return model is None or model.loaded_with(tryon)


def sha256_of(path: Path) -> str:
    """The file's sha256, read in chunks (never the whole file in memory)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def model_of(relative: str) -> Model | None:
    """The layout's model whose folder holds file `relative` (None for a file outside them)."""
    for model in MODELS:
        if relative.startswith(model.folder + "/"):
            return model
    return None


def provenance(relative: str, tiny: bool = False) -> dict[str, Any]:
    """File `relative`'s source, licence, commercial use and note, as the manifest records them.
    The tiny set carries the licences of the files it stands in for, so that it starts (or is
    refused) exactly as the real set would."""
    model = model_of(relative)
    if model is None:
        source, licence = "not part of the layout", UNKNOWN
    else:
        source, licence = model.source_of(relative[len(model.folder) + 1 :]), model.licence
    return {"source": TINY_SOURCE + source if tiny else source, "licence": licence.spdx,
            "commercial": licence.commercial, "note": licence.note}


def build_manifest(root: Path, tiny: bool = False) -> dict[str, Any]:
    """The manifest of every file under `root` (but the manifest itself), sorted by path."""
    files = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = path.relative_to(root).as_posix()
        if relative == MANIFEST:
            continue
        files.append({"path": relative, "size": path.stat().st_size, "sha256": sha256_of(path),
                      **provenance(relative, tiny)})
    return {"version": MANIFEST_VERSION, "files": files}


def write_manifest(root: Path, tiny: bool = False) -> dict[str, Any]:
    """Writes `root`/manifest.json for what `root` holds now, and returns it."""
    manifest = build_manifest(root, tiny)
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


def verify(root: Path | str, tryon: str | None = None) -> int:
    """Checks the weights folder against its manifest: every file the layout needs is listed, and
    every listed file exists with its size and sha256; with `tryon`, only the files a worker
    running that try-on loads (a folder fetched for FASHN needs no CatVTON). Returns how many
    files were checked; raises WeightsError naming every missing or corrupt file (one per line)
    otherwise."""
    root = Path(root)
    manifest = load_manifest(root)
    entries: list[dict[str, Any]] = [entry for entry in manifest["files"]
                                     if loaded(str(entry.get("path")), tryon)]
    listed = {str(entry.get("path")) for entry in entries}
    problems = [f"{name} is not in {MANIFEST}" for name in required_files(tryon)
                if name not in listed]
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


# ---------------------------------------------------------------------------------------------
# Licences


@dataclass(frozen=True)
class Row:
    """One file of the licence table."""

    path: str
    source: str
    licence: str
    commercial: bool
    note: str


def licence_rows(manifest: dict[str, Any]) -> list[Row]:
    """Each listed file's licence record. An entry without one (a version-1 manifest) reads as
    unknown and not for commercial use: never assumed in favour of selling."""
    rows = []
    for entry in manifest["files"]:
        recorded = isinstance(entry.get("licence"), str) and entry.get("commercial") is True
        rows.append(Row(
            path=str(entry.get("path")),
            source=str(entry.get("source") or "not recorded"),
            licence=str(entry.get("licence") or UNKNOWN.spdx),
            commercial=recorded,
            note=str(entry.get("note") or UNKNOWN.note),
        ))
    return rows


def layout_rows() -> list[Row]:
    """The licence table of the real checkpoints as MODELS records them (no folder needed)."""
    return [Row(f"{model.folder}/{name}", model.source_of(name), model.licence.spdx,
                model.licence.commercial, model.licence.note)
            for model in MODELS for name in model.files]


def licence_table(rows: list[Row]) -> str:
    """The table `python -m ops.weights verify` prints: file, licence, commercial, source."""
    header = Row("file", "source", "licence", False, "")
    lines = [(r.path, r.licence, "commercial" if r is header else ("yes" if r.commercial else "NO"),
              r.source) for r in (header, *rows)]
    widths = [max(len(line[i]) for line in lines) for i in range(3)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line[:3], widths, strict=True))
        + "  " + line[3] for line in lines)


def check_licences(root: Path | str, allow_non_commercial: bool, production: bool,
                   tryon: str | None = None) -> list[Row]:
    """The files in `root`'s manifest that do not allow commercial use (or whose licence is
    unknown), among those a worker running try-on `tryon` loads (None: all of them). A
    production worker loads none of them; elsewhere they need the explicit
    ALLOW_NON_COMMERCIAL_WEIGHTS switch. Raises LicenceError naming each file and its licence
    (one line); returns the non-commercial rows it let through."""
    rows = [row for row in licence_rows(load_manifest(Path(root)))
            if not row.commercial and loaded(row.path, tryon)]
    if not rows or (allow_non_commercial and not production):
        return rows
    named = "; ".join(f"{row.path} is {row.licence}, not licensed for commercial use "
                      f"({row.note})" for row in rows)
    if production:
        raise LicenceError(f"{named}. A production worker loads only weights whose licence "
                           "allows commercial use")
    raise LicenceError(f"{named}. Set ALLOW_NON_COMMERCIAL_WEIGHTS=true to load them for "
                       "development or research (production refuses that switch)")
