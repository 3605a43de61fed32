"""The try-on model's arithmetic, counted from its config (issue 35 section 4: the bench reports
the share of the accelerator's peak that sampling reaches, which needs the work done).

FLOPs are 2 per multiply-add, for the matrix products (linear layers, the patch convolutions,
attention's two products); norms, activations and rotary turns are left out (a fraction of a
percent). tests/imaging/test_fashn_flops.py checks the count against torch's own FLOP counter.
"""

from __future__ import annotations

from engine.diffusion.fashn.config import TryOnConfig


def forward_flops(config: TryOnConfig, batch: int = 1, height: int | None = None,
                  width: int | None = None) -> int:
    """One forward pass over `batch` samples at height x width (the config's by default)."""
    c = config
    height, width = height or c.height, width or c.width
    n = (height // c.patch) * (width // c.patch)  # tokens per image
    joint = 2 * n  # person + garment
    h = c.hidden
    per_token_block = 2 * (4 * h * h + 2 * h * c.mlp_hidden)  # qkv + proj + MLP in and out
    attention = 4 * h  # times length squared: q.k and weights.v over all heads

    embed = 2 * n * h * c.patch * c.patch * (c.person_channels + c.garment_channels)
    conditioning = 2 * h * (c.time_features + h)  # time MLP, once per sample
    conditioning += 2 * h * h * (  # each block's (and the last layer's) modulation
        c.mixer_depth * 3 + c.double_depth * 2 * 6 + c.single_depth * 3 + 2)
    mixer = c.mixer_depth * (n * per_token_block + attention * n * n)
    double = c.double_depth * (joint * per_token_block + attention * joint * joint)
    single = c.single_depth * (joint * per_token_block + attention * joint * joint)
    final = 2 * n * h * c.patch_values
    return batch * (embed + conditioning + mixer + double + single + final)


def image_flops(config: TryOnConfig, steps: int, unguided_last: int = 1,
                guided: bool = True) -> int:
    """One sampled image: a guided step runs the model on two samples (conditional and not),
    an unguided one on one."""
    guided_steps = max(steps - unguided_last, 0) if guided else 0
    passes = 2 * guided_steps + (steps - guided_steps)
    return passes * forward_flops(config)
