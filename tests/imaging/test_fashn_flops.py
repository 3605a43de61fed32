"""The try-on model's FLOP count (engine/diffusion/fashn/flops.py) against torch's own counter,
run on the meta device: the full-size model's arithmetic checked without allocating it."""

from __future__ import annotations

import torch
from torch.utils.flop_counter import FlopCounterMode

from engine.diffusion.fashn.config import FULL, TINY, TryOnConfig
from engine.diffusion.fashn.flops import forward_flops, image_flops
from engine.diffusion.fashn.model import Conditions, TryOnMMDiT


def counted(config: TryOnConfig, batch: int, height: int, width: int) -> int:
    with torch.device("meta"):
        model = TryOnMMDiT(config)

        def blank(channels: int) -> torch.Tensor:
            return torch.zeros(batch, channels, height, width)

        inputs = Conditions(blank(3), blank(1), blank(3), blank(1),
                            torch.zeros(batch, dtype=torch.long))
        with FlopCounterMode(display=False) as counter:
            model(blank(3), torch.zeros(batch), inputs)
    return int(counter.get_total_flops())


def test_the_count_is_torch_s_count() -> None:
    assert forward_flops(TINY, 2) == counted(TINY, 2, TINY.height, TINY.width)
    assert forward_flops(TINY, 1, 144, 96) == counted(TINY, 1, 144, 96)
    full = forward_flops(FULL)
    assert full == counted(FULL, 1, FULL.height, FULL.width)
    # 13.2 TFLOP per pass at 576x864 (the "about 19" counted every parameter on all
    # 6,912 tokens: the patch mixer sees only the person's 3,456, modulation runs once).
    assert 13.1e12 < full < 13.3e12


def test_an_image_at_the_reference_settings() -> None:
    # 30 steps: 29 guided (two samples each), the last one not: 59 passes.
    assert image_flops(FULL, 30) == 59 * forward_flops(FULL)
    assert image_flops(FULL, 30, guided=False) == 30 * forward_flops(FULL)
