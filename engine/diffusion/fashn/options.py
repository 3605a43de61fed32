"""How the try-on model is run, apart from what it computes (issue 35 section 4): the speed
options of the runner. The default (`RunnerOptions()`) is the reference: torch picks the
attention kernel, nothing compiled, bf16 matmuls. Each option is one setting the bench
(ops.engine_bench) measures against that reference on the same weights and inputs.

- attention: torch SDPA's backend, chosen with torch.nn.attention.sdpa_kernel ("flash",
  "efficient", "cudnn", "math"; "default" lets torch choose, as the reference does). The CPU has
  "flash" and "math" only: asking it for another fails at the first forward pass, by name.
- compile: torch.compile of each transformer block ("regional" compilation: the blocks of one
  kind share their code, so the 28 blocks cost about two compiles, not one graph of the whole
  model, whose compile on two CPU cores outran 5 minutes even at the tiny size); shapes
  automatically dynamic after the first change (the guided and unguided steps' batch sizes),
  which bounds recompiles. The bench reports the first call's time (the compile) per batch size.
- cuda_graphs: the same compile in "reduce-overhead" mode: each block's kernels replayed as CUDA
  graphs (launch overhead gone; needs a CUDA device). Whole-model graphs would also take in the
  embedders, whose CPU-made position and frequency tables inductor cannot put in a graph.
- fp8: the transformer blocks' token-wise linear layers (q/k/v, projections, MLPs) as float8
  matmuls with dynamic per-row scales (torchao 0.18.0, BSD-3-Clause); needs a CUDA device of
  compute capability 8.9 or more (Ada, Hopper). The embedders, the modulation layers (a handful
  of rows: nothing to gain) and the final layer stay bf16. torchao is not in the imaging
  environment: installed, diffusers and transformers import it at every start (seconds, and
  warnings about its CUDA kernels on a CPU) for a setting no product path uses yet. The GPU
  bench carries its wheel (ops/device/fashn_bench.sh); pin it in requirements-imaging.txt if FP8
  ever becomes the product's.

Fused projections: the published layout already fuses them (one `qkv` linear per stream in the
double blocks; q, k, v and the MLP's input in one `linear1` in the single blocks), so there is no
further fusion to make without changing the state dict's layout.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn

ATTENTION_BACKENDS = ("default", "flash", "efficient", "cudnn", "math")
FP8_CAPABILITY = (8, 9)
# The linear layers fp8 converts: those applied to every token (names end so in layers.py).
TOKEN_WISE = (".qkv", ".proj", ".linear1", ".linear2", "_mlp.0", "_mlp.2")


class NeedsCuda(RuntimeError):
    """An option that only a CUDA device (of some capability) can run."""


@dataclass(frozen=True)
class RunnerOptions:
    attention: str = "default"
    compile: bool = False
    cuda_graphs: bool = False  # torch.compile's "reduce-overhead" mode (implies compile)
    fp8: bool = False

    def __post_init__(self) -> None:
        if self.attention not in ATTENTION_BACKENDS:
            raise ValueError(f"attention backend {self.attention!r} is not one of "
                             f"{', '.join(ATTENTION_BACKENDS)}")

    def check(self, device: torch.device) -> None:
        """Raises NeedsCuda, naming the option, where `device` cannot run it."""
        if self.cuda_graphs and device.type != "cuda":
            raise NeedsCuda("CUDA graphs needs a CUDA device")
        if self.fp8:
            if device.type != "cuda":
                raise NeedsCuda("FP8 (float8 matmuls) needs a CUDA device of compute capability "
                                ">= 8.9")
            capability = torch.cuda.get_device_capability(device)
            if capability < FP8_CAPABILITY:
                raise NeedsCuda(f"FP8 (float8 matmuls) needs a CUDA device of compute capability "
                                f">= 8.9; this one is {capability[0]}.{capability[1]}")


def is_token_wise(module: nn.Module, name: str) -> bool:
    return isinstance(module, nn.Linear) and name.endswith(TOKEN_WISE) and (
        "blocks" in name or "patch_mixer" in name)


def to_fp8(model: nn.Module) -> int:
    """Converts the token-wise linear layers in place (torchao); returns how many."""
    try:
        from torchao.quantization import (
            Float8DynamicActivationFloat8WeightConfig,
            PerRow,
            quantize_,
        )
    except ImportError as error:
        raise RuntimeError("FP8 needs torchao 0.18.0 (BSD-3-Clause), which the imaging "
                           "environment does not hold (ops/device/fashn_bench.sh carries it)"
                           ) from error

    names = [name for name, module in model.named_modules() if is_token_wise(module, name)]
    quantize_(model, Float8DynamicActivationFloat8WeightConfig(granularity=PerRow()),
              filter_fn=is_token_wise)
    return len(names)


def prepare(model: nn.Module, options: RunnerOptions) -> Any:
    """The module the sampler runs: `model` itself, converted and/or its blocks compiled in
    place as `options` ask."""
    options.check(next(model.parameters()).device)
    if options.fp8:
        to_fp8(model)
    if options.cuda_graphs or options.compile:
        compile_blocks(model, "reduce-overhead" if options.cuda_graphs else "default")
    return model


BLOCK_LISTS = ("x_patch_mixer", "double_blocks", "single_blocks")


def compile_blocks(model: nn.Module, mode: str) -> int:
    """Compiles every transformer block in place (nn.Module.compile); returns how many."""
    blocks = [block for name in BLOCK_LISTS for block in getattr(model, name)]
    for block in blocks:
        block.compile(mode=mode)
    return len(blocks)


@contextmanager
def attention(backend: str) -> Iterator[None]:
    """The SDPA backend for what runs inside (the reference: torch's own choice)."""
    if backend == "default":
        with nullcontext():
            yield
        return
    from torch.nn.attention import SDPBackend, sdpa_kernel

    chosen = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
              "cudnn": SDPBackend.CUDNN_ATTENTION, "math": SDPBackend.MATH}[backend]
    with sdpa_kernel(chosen):
        yield


__all__ = ["ATTENTION_BACKENDS", "NeedsCuda", "RunnerOptions", "attention", "compile_blocks",
           "prepare", "to_fp8"]
