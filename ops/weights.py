"""The generative engine's weights (issue 21): ``python -m ops.weights {tiny,verify,fetch} DIR``.

- ``tiny DIR``   writes a complete set of small models with random weights (fixed seed) in the
  real checkpoints' layout (engine/diffusion/weights.py), built from the same diffusers and
  transformers classes (and our FASHN try-on class, engine/diffusion/fashn; DWPose's two ONNX
  files as tiny twins of their interface, written with the `onnx` package), and its manifest.
  The tests use it; it takes seconds on a CPU.
- ``verify DIR`` checks DIR against its manifest.json (size and sha256 of every file) and prints
  its licence table: each file's licence, whether it allows commercial use, and its source.
- ``licences``   prints the same table for the real checkpoints, as the layout records them.
- ``fetch DIR``  downloads the real checkpoints from Hugging Face (needs network access, which these
  machines do not have) and writes the manifest.

``tiny`` and ``fetch`` run in the imaging environment (.venv-imaging: torch, diffusers, onnx);
torch, diffusers and onnx are imported inside them, so ``--help``, ``verify`` and ``licences`` run
anywhere.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.diffusion.weights import CATVTON as CATVTON_TRYON
from engine.diffusion.weights import (
    DWPOSE_DETECTOR,
    DWPOSE_POSE,
    DWPOSE_SOURCE,
    FASHN_SOURCE,
    FASHN_WEIGHTS,
    IN_CHANNELS,
    MODELS,
    WEIGHTS_FILE,
    WeightsError,
    layout_rows,
    licence_rows,
    licence_table,
    load_manifest,
    verify,
    write_manifest,
)
from engine.diffusion.weights import FASHN as FASHN_TRYON

SEED = 21
# Small but real: the channel counts divide by the group count (norm_num_groups).
TINY_UNET: dict[str, Any] = {
    "sample_size": 16,
    "out_channels": 4,
    "block_out_channels": (32, 64),
    "layers_per_block": 1,
    "norm_num_groups": 8,
    "cross_attention_dim": 32,
    "attention_head_dim": 8,
    "down_block_types": ("CrossAttnDownBlock2D", "DownBlock2D"),
    "up_block_types": ("UpBlock2D", "CrossAttnUpBlock2D"),
}
TINY_VAE: dict[str, Any] = {
    "in_channels": 3,
    "out_channels": 3,
    "latent_channels": 4,
    "block_out_channels": (32, 64),
    "layers_per_block": 1,
    "norm_num_groups": 8,
    "down_block_types": ("DownEncoderBlock2D", "DownEncoderBlock2D"),
    "up_block_types": ("UpDecoderBlock2D", "UpDecoderBlock2D"),
}

# The real checkpoints (see README, "Generative engine (GPU imaging workers): weights").
SD15_INPAINTING = "stable-diffusion-v1-5/stable-diffusion-inpainting"
CATVTON = "zhengchong/CatVTON"
CATVTON_ATTENTION = "mix-48k-1024/attention/model.safetensors"
RELIGHT_BASE = "stablediffusionapi/realistic-vision-v51"  # the base of IC-Light's own demo
ICLIGHT = "lllyasviel/ic-light"
ICLIGHT_FBC = "iclight_sd15_fbc.safetensors"


def _diffusers_files(*folders: str, variant: str = "") -> list[str]:
    weights = f"diffusion_pytorch_model.{variant}.safetensors" if variant else WEIGHTS_FILE
    return [f"{folder}/{name}" for folder in folders for name in ("config.json", weights)]


def _drop_variant(root: Path, variant: str) -> None:
    """`x.fp16.safetensors` → `x.safetensors`: the layout has one weights file per model, whatever
    its dtype (diffusers casts on load; the GPU engine runs in fp16/bf16 anyway)."""
    for path in root.rglob(f"*.{variant}.safetensors"):
        path.rename(path.with_name(path.name.replace(f".{variant}.", ".")))


# ---------------------------------------------------------------------------------------------
# IC-Light: its fbc checkpoint is a set of offsets over an SD1.5 UNet whose conv_in is widened.


def widen_and_merge(unet: Any, offsets: dict[str, Any]) -> Any:
    """IC-Light's own recipe (its gradio_demo_bg.py): conv_in widened from 4 to 12 input channels
    (the new ones start at zero), then IC-Light's offsets added to every parameter."""
    import torch

    old = unet.conv_in
    with torch.no_grad():
        conv = torch.nn.Conv2d(12, old.out_channels, old.kernel_size, old.stride, old.padding)
        conv.weight.zero_()
        conv.weight[:, :4, :, :].copy_(old.weight)
        conv.bias = old.bias
        unet.conv_in = conv
        unet.register_to_config(in_channels=12)
        origin = unet.state_dict()
        missing = sorted(set(origin) ^ set(offsets))
        if missing:
            raise WeightsError(f"IC-Light offsets do not fit the UNet: {missing[:5]}")
        unet.load_state_dict({key: origin[key] + offsets[key] for key in origin}, strict=True)
    return unet


# ---------------------------------------------------------------------------------------------
# tiny


def _byte_chars() -> list[str]:
    """GPT-2's and CLIP's byte-level alphabet: one printable character for each of the 256 bytes."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1),
                 *range(ord("®"), ord("ÿ") + 1)]
    extra = iter(range(256, 512))
    return [chr(b) if b in printable else chr(next(extra)) for b in range(256)]


def _tiny_tokenizer(folder: Path) -> int:
    """A real CLIP tokenizer over a byte-level vocabulary (every byte, alone and word-final) with no
    merges, written from nothing (no vocabulary can be downloaded here). Returns its size."""
    from transformers import CLIPTokenizer

    chars = _byte_chars()
    vocab = {token: index for index, token in enumerate(chars + [c + "</w>" for c in chars])}
    vocab["<|startoftext|>"] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    tokenizer = CLIPTokenizer(vocab=vocab, merges=[], model_max_length=77)
    tokenizer.save_pretrained(str(folder))
    return len(vocab)


def build_tiny(root: Path) -> dict[str, Any]:
    """The tiny set under `root` (emptied first), with its manifest."""
    import torch
    from diffusers import AutoencoderKL, UNet2DConditionModel
    from safetensors.torch import save_model
    from transformers import CLIPTextConfig, CLIPTextModel

    from engine.diffusion.pipelines import attention_modules

    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    torch.manual_seed(SEED)

    # Try-on: the SD1.5 inpainting UNet + VAE, and CatVTON's attention weights (the attn1
    # parameters of the UNet, saved on their own as CatVTON publishes them).
    tryon = UNet2DConditionModel(in_channels=IN_CHANNELS["tryon/unet"], **TINY_UNET)
    tryon.save_pretrained(root / "tryon/unet", safe_serialization=True)
    AutoencoderKL(**TINY_VAE).save_pretrained(root / "tryon/vae", safe_serialization=True)
    # CatVTON's checkpoint is the state dict of the ModuleList of the UNet's "attn1" modules
    # (engine/diffusion/pipelines.attention_modules); save_model writes a shared tensor once.
    (root / "tryon/attention").mkdir(parents=True)
    save_model(attention_modules(tryon), str(root / "tryon/attention/model.safetensors"))

    # Relight: an SD1.5 UNet widened to 12 channels and merged with (random) IC-Light offsets,
    # by the same code that `fetch` uses on the real ones.
    base = UNet2DConditionModel(in_channels=4, **TINY_UNET)
    shapes = {key: value.shape for key, value in base.state_dict().items()}
    shapes["conv_in.weight"] = (base.conv_in.out_channels, 12, *base.conv_in.kernel_size)
    offsets = {key: torch.randn(shape) * 0.01 for key, shape in shapes.items()}
    relight = widen_and_merge(base, offsets)
    relight.save_pretrained(root / "relight/unet", safe_serialization=True)
    AutoencoderKL(**TINY_VAE).save_pretrained(root / "relight/vae", safe_serialization=True)
    vocab_size = _tiny_tokenizer(root / "relight/tokenizer")
    width = TINY_UNET["cross_attention_dim"]
    text_config = CLIPTextConfig(vocab_size=vocab_size, hidden_size=width, intermediate_size=64,
                                 num_hidden_layers=2, num_attention_heads=4,
                                 max_position_embeddings=77, projection_dim=width,
                                 bos_token_id=vocab_size - 2, eos_token_id=vocab_size - 1,
                                 pad_token_id=vocab_size - 1)
    CLIPTextModel(text_config).save_pretrained(root / "relight/text_encoder")

    # Try-on on FASHN VTON v1.5's architecture: the same class and key layout at the TINY size
    # (recorded in the file's metadata), loaded by the same checked loader as the real file.
    from engine.diffusion.fashn.config import TINY
    from engine.diffusion.fashn.loading import save_tryon
    from engine.diffusion.fashn.model import TryOnMMDiT

    (root / FASHN_WEIGHTS).parent.mkdir(parents=True)
    save_tryon(TryOnMMDiT(TINY), root / FASHN_WEIGHTS)

    # DWPose's detector and pose model: ONNX files of the published interface at a small input
    # size (engine/diffusion/fashn/dwpose_tiny.py), run by the same onnxruntime code.
    from engine.diffusion.fashn.dwpose_tiny import write_detector, write_pose

    write_detector(root / DWPOSE_DETECTOR)
    write_pose(root / DWPOSE_POSE)
    return write_manifest(root, tiny=True)


# ---------------------------------------------------------------------------------------------
# fetch


def fetch(root: Path, tryon: str | None = None) -> dict[str, Any]:
    """Downloads the real checkpoints into `root` in the layout, merges IC-Light, writes the
    manifest. With `tryon`, only that try-on model's files besides the relight's (a production
    folder for FASHN holds no CatVTON). Needs network access to huggingface.co and the imaging
    environment."""
    import torch
    from diffusers import UNet2DConditionModel
    from huggingface_hub import hf_hub_download, snapshot_download
    from safetensors.torch import load_file

    root.mkdir(parents=True, exist_ok=True)
    if tryon in (None, CATVTON_TRYON):
        # This repo publishes its safetensors in fp16 only (fp32 as pickled .bin, which we
        # refuse).
        snapshot_download(SD15_INPAINTING, local_dir=root / "tryon",
                          allow_patterns=_diffusers_files("unet", "vae", variant="fp16"))
        _drop_variant(root / "tryon", "fp16")
        (root / "tryon/attention").mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=root) as scratch:
            hf_hub_download(CATVTON, CATVTON_ATTENTION, local_dir=scratch)
            shutil.move(Path(scratch, CATVTON_ATTENTION),
                        root / "tryon/attention/model.safetensors")

    snapshot_download(RELIGHT_BASE, local_dir=root / "relight", allow_patterns=[
        *_diffusers_files("vae"), "text_encoder/config.json", "text_encoder/model.safetensors",
        "tokenizer/*"])
    with tempfile.TemporaryDirectory(dir=root) as scratch:
        snapshot_download(RELIGHT_BASE, local_dir=scratch, allow_patterns=_diffusers_files("unet"))
        offsets = load_file(hf_hub_download(ICLIGHT, ICLIGHT_FBC, local_dir=scratch))
        unet = UNet2DConditionModel.from_pretrained(Path(scratch, "unet"),
                                                    torch_dtype=torch.float32)
        widen_and_merge(unet, offsets).save_pretrained(root / "relight/unet",
                                                       safe_serialization=True)
    if tryon in (None, FASHN_TRYON):
        # FASHN VTON v1.5's try-on weights, published in bf16, as they are (about 2 GB).
        hf_hub_download(FASHN_SOURCE, Path(FASHN_WEIGHTS).name, local_dir=root / "fashn")
        # DWPose's two ONNX files from their authors' repo (the reference takes the same files
        # from its mirror fashn-ai/DWPose), 217 MB and 134 MB.
        for relative in (DWPOSE_DETECTOR, DWPOSE_POSE):
            hf_hub_download(DWPOSE_SOURCE, Path(relative).name,
                            local_dir=(root / relative).parent)
    # huggingface_hub's bookkeeping
    for stray in (root / "tryon/.cache", root / "relight/.cache", root / "fashn/.cache",
                  *((root / name).parent / ".cache" for name in (DWPOSE_DETECTOR, DWPOSE_POSE))):
        shutil.rmtree(stray, ignore_errors=True)
    return write_manifest(root)


# ---------------------------------------------------------------------------------------------


def verify_and_print(root: Path, tryon: str | None = None) -> int:
    """`verify DIR [--tryon T]`: the licence table (whenever the manifest can be read), then
    "ok: N files" or every bad file on stderr and exit status 1; with a try-on model, the files a
    worker running it loads (else the whole layout)."""
    try:
        print(licence_table(licence_rows(load_manifest(root))))
        count = verify(root, tryon)
    except WeightsError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(f"ok: {count} files")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.weights", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("tiny", "write the tiny random-weight set"),
                       ("verify", "check a weights folder against its manifest.json and print "
                                  "its licence table"),
                       ("fetch", "download the real checkpoints (needs network)")):
        command = commands.add_parser(name, help=text)
        command.add_argument("dir", type=Path)
        if name != "tiny":
            command.add_argument("--tryon", choices=(FASHN_TRYON, CATVTON_TRYON), default=None,
                                 help="only the files a worker running this try-on model "
                                      "loads (DIFFUSION_TRYON); default: the whole layout")
    commands.add_parser("licences", help="print the real checkpoints' licence table")
    args = parser.parse_args(argv)
    if args.command == "licences":
        print(licence_table(layout_rows()))
        return 0
    root: Path = args.dir

    if args.command == "verify":
        return verify_and_print(root, args.tryon)

    started = time.monotonic()
    if args.command == "tiny":
        manifest = build_tiny(root)
    else:
        try:
            manifest = fetch(root, args.tryon)
        except Exception as error:  # noqa: BLE001 - any download failure ends the same way
            print(f"error: fetch could not download the checkpoints into {root}: "
                  f"{type(error).__name__}: {error}\n(it needs network access to huggingface.co, "
                  "which this machine may not have; use `tiny` for tests)", file=sys.stderr)
            return 1
    size = sum(int(entry["size"]) for entry in manifest["files"])
    print(f"{args.command}: {len(manifest['files'])} files, {size / 1e6:.1f} MB in {root} "
          f"({time.monotonic() - started:.1f} s); models: "
          + ", ".join(model.folder for model in MODELS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
