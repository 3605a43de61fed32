"""Rectified-flow sampling of the try-on model: Euler steps from noise (t = 0) to image (t = 1).

The reference's defaults: 30 steps on a time grid shifted towards the noisy end (mu 1.5), and
classifier-free guidance 1.5 on every step but the last (guidance on the last step over-saturates
colours, so that step uses the conditional velocity alone).

Same seed, same inputs -> same image: each sample's noise is drawn from its own CPU generator
(the same numbers on any device, whatever else shares the batch) and nothing else is random.
Between steps the sampler reports progress and asks whether to stop; a stop raises
batching.JobCancelled, the exception the batcher already handles.

Faster settings (issue 35 section 4; the product's default stays the reference until someone
has compared them on real weights): fewer steps, and guidance skipped on some steps
(`guided_first`: only the first K steps guided, where the layout is decided; `guidance_every`:
every n-th step guided). A step without guidance runs the model once instead of twice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from engine.diffusion.batching import JobCancelled
from engine.diffusion.fashn.model import Conditions, TryOnMMDiT


@dataclass(frozen=True)
class SamplerSettings:
    steps: int = 30
    guidance: float = 1.5
    shift: float = 1.5  # mu of the time grid; larger spends more steps near the noise
    unguided_last: int = 1  # final steps without guidance
    guided_first: int | None = None  # guidance only on the first K steps (None: no such limit)
    guidance_every: int = 1  # guidance on steps 0, n, 2n, ... (1: every step)

    def __post_init__(self) -> None:
        if self.steps < 1:
            raise ValueError(f"steps must be at least 1, got {self.steps}")
        if self.unguided_last < 0 or (self.guided_first is not None and self.guided_first < 0):
            raise ValueError("unguided_last and guided_first must not be negative")
        if self.guidance_every < 1:
            raise ValueError(f"guidance_every must be at least 1, got {self.guidance_every}")

    def guided(self, index: int) -> bool:
        """Whether step `index` (0-based) runs guidance (two model passes) or the conditional
        velocity alone (one). Guidance 1 is the conditional velocity itself: never guided."""
        return (self.guidance != 1.0 and index < self.steps - self.unguided_last
                and (self.guided_first is None or index < self.guided_first)
                and index % self.guidance_every == 0)

    @property
    def guided_steps(self) -> int:
        return sum(self.guided(index) for index in range(self.steps))

    @property
    def model_passes(self) -> int:
        """Samples the model runs on per image: two per guided step, one per other step (what
        the FLOPs per image scale with: flops.forward_flops times this)."""
        return self.steps + self.guided_steps


REFERENCE = SamplerSettings()  # the reference's defaults: 30 steps, guidance 1.5


def time_grid(steps: int, shift: float) -> list[float]:
    """steps + 1 times from 0 to 1. Uniform u is bent to s u / (s u + 1 - u) with s = e^-shift:
    small steps near the noise (t = 0), where the image's layout is decided."""
    squeeze = math.exp(-shift)
    uniform = [i / steps for i in range(steps + 1)]
    return [squeeze * u / (squeeze * u + (1 - u)) for u in uniform]


def initial_noise(shape: tuple[int, ...], seeds: Sequence[int], device: torch.device,
                  dtype: torch.dtype) -> Tensor:
    """One (C, H, W) noise image per seed, stacked."""
    images = [torch.randn(shape, generator=torch.Generator("cpu").manual_seed(seed),
                          dtype=torch.float32) for seed in seeds]
    return torch.stack(images).to(device, dtype)


def velocity(model: TryOnMMDiT, images: Tensor, now: float, conditions: Conditions,
             both: Conditions | None, guidance: float) -> Tensor:
    """The step's velocity: guided (one pass over the conditional and unconditional halves,
    `both`), or conditional alone where `both` is None."""
    batch = images.shape[0]
    weight = model.final_layer.linear.weight
    if both is None:
        times = torch.full((batch,), now, device=weight.device, dtype=weight.dtype)
        result: Tensor = model(images, times, conditions)
        return result
    times = torch.full((2 * batch,), now, device=weight.device, dtype=weight.dtype)
    conditional, free = model(torch.cat((images, images)), times, both).chunk(2)
    return free + guidance * (conditional - free)


def sample(model: TryOnMMDiT, conditions: Conditions, seeds: Sequence[int],
           settings: SamplerSettings = REFERENCE,
           on_step: Callable[[int], None] | None = None,
           cancelled: Callable[[], bool] | None = None) -> Tensor:
    """The generated images, (B, 3, H, W) in [-1, 1] float32, one seed per sample. `on_step(i)`
    is called after step i (1-based); `cancelled()` is asked before each step and stops the loop
    (JobCancelled)."""
    weight = model.final_layer.linear.weight
    c = model.config
    if len(seeds) != conditions.category.shape[0]:
        raise ValueError(f"{len(seeds)} seeds for {conditions.category.shape[0]} samples")
    height, width = conditions.person.shape[-2:]
    shape = (c.image_channels, height, width)
    # Guidance 1 is the conditional velocity itself: the unconditional pass is skipped.
    both = conditions.joined(conditions.dropped()) if settings.guidance != 1.0 else None
    grid = time_grid(settings.steps, settings.shift)
    with torch.inference_mode():  # no autograd bookkeeping: nothing here is trained
        images = initial_noise(shape, seeds, weight.device, weight.dtype)
        for index, (now, later) in enumerate(zip(grid[:-1], grid[1:], strict=True)):
            if cancelled is not None and cancelled():
                raise JobCancelled()
            guided = both if settings.guided(index) else None
            images = images + (later - now) * velocity(model, images, now, conditions, guided,
                                                       settings.guidance)
            if on_step is not None:
                on_step(index + 1)
        return images.float().clamp(-1.0, 1.0)
