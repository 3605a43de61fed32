"""Full-size random weights for FASHN's bench (the published model.safetensors cannot be fetched
on the GPU box either): the tiny set (ops.weights tiny: DWPose's ONNX twins, the relight and
CatVTON models the engine also loads) with its try-on file replaced by FASHN VTON v1.5's MMDiT at
its published size (972M parameters, bf16 as published) with random weights. Same architecture,
so the same FLOPs and memory as the real file; the images are noise.

Where the tiny set cannot be built (no diffusers, or an onnx that does not import, on a bare GPU
box) only the try-on file is written: the sampler's bench needs nothing else, and the whole
engine call says why it did not run.
"""

from __future__ import annotations

import time
from pathlib import Path

FULL_SIZE_PARAMETERS = 900_000_000  # below this the model is not FASHN's full size (the tiny set)


def build_fashn_full(root: Path) -> str:
    """Writes the folder; returns what it holds, in words."""
    import torch

    from engine.diffusion.fashn.config import FULL
    from engine.diffusion.fashn.loading import save_tryon
    from engine.diffusion.fashn.model import TryOnMMDiT
    from engine.diffusion.weights import FASHN_WEIGHTS
    from ops.weights import SEED

    started = time.perf_counter()
    what = "full-size random FASHN try-on + the tiny set's other models (DWPose's twins)"
    try:
        from ops.weights import build_tiny

        build_tiny(root)
    except Exception as error:  # noqa: BLE001 - a bare GPU box (no diffusers, another onnx)
        what = (f"full-size random FASHN try-on only (the tiny set could not be built: "
                f"{type(error).__name__}: {error})"[:300])
        root.mkdir(parents=True, exist_ok=True)
        (root / "manifest.json").unlink(missing_ok=True)  # a half-built set is not verified
    torch.manual_seed(SEED)
    device = "cuda" if torch.cuda.is_available() else "cpu"  # initialising 972M: GPU is quicker
    with torch.device(device):
        model = TryOnMMDiT(FULL).to(torch.bfloat16)
    (root / FASHN_WEIGHTS).parent.mkdir(parents=True, exist_ok=True)
    save_tryon(model.cpu(), root / FASHN_WEIGHTS)
    del model
    if (root / "manifest.json").is_file():
        from engine.diffusion.weights import write_manifest

        write_manifest(root, tiny=True)  # the try-on file's new size and hash
    print(f"built {what} in {root} in {time.perf_counter() - started:.1f} s", flush=True)
    return what


__all__ = ["FULL_SIZE_PARAMETERS", "build_fashn_full"]
