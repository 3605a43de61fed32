"""The try-on transformer's sizes: the published FASHN VTON v1.5 checkpoint's, and a tiny one.

The numbers of `FULL` are those the published ``model.safetensors`` was trained with (read from
the reference repository, fashn-AI/fashn-vton-1.5, which builds its module tree from them); the
loader checks every tensor's shape against the module this config builds, so a wrong number here
shows up as a named misshapen key, never as a silently different model.

Token arithmetic at the native 576x864 (width x height) with 12x12 patches: 48 x 72 = 3,456
tokens for the person and as many for the garment, 6,912 in the joint attention.
"""

from __future__ import annotations

from dataclasses import dataclass

# Garment categories as the model was trained on them; 0 is the "no condition" class that the
# unconditional half of classifier-free guidance uses.
CATEGORIES = {"tops": 1, "bottoms": 2, "one-pieces": 3}
NULL_CATEGORY = 0


@dataclass(frozen=True)
class TryOnConfig:
    """Hyper-parameters of the try-on MMDiT. `height`/`width` are the pixel size it works at
    (the output size, and the size every conditioning image is brought to)."""

    height: int = 864
    width: int = 576
    patch: int = 12  # pixels per side of one token: pixel space, no VAE
    hidden: int = 1280
    heads: int = 10
    double_depth: int = 8  # blocks with separate person / garment weights
    single_depth: int = 16  # blocks over the joint sequence, shared weights
    mixer_depth: int = 4  # person-only blocks before the joint ones
    mlp_ratio: int = 4
    image_channels: int = 3  # RGB; poses are one grey channel
    categories: int = 3  # tops, bottoms, one-pieces (+1 null class in the table)
    rope_theta: int = 10_000
    # Rotary dims per position axis (a constant axis, rows, columns); they sum to the head size.
    rope_axes: tuple[int, int, int] = (16, 56, 56)
    time_features: int = 256  # sinusoid width fed to the time MLP

    def __post_init__(self) -> None:
        if self.hidden % self.heads:
            raise ValueError(f"hidden {self.hidden} does not divide into {self.heads} heads")
        if sum(self.rope_axes) != self.head_dim or any(axis % 2 for axis in self.rope_axes):
            raise ValueError(f"rope axes {self.rope_axes} must be even and sum to the head size "
                             f"{self.head_dim}")
        if self.height % self.patch or self.width % self.patch:
            raise ValueError(f"{self.width}x{self.height} does not divide into "
                             f"{self.patch}x{self.patch} patches")

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def mlp_hidden(self) -> int:
        return self.hidden * self.mlp_ratio

    @property
    def grid(self) -> tuple[int, int]:
        """Token rows and columns of one image."""
        return self.height // self.patch, self.width // self.patch

    @property
    def tokens_per_image(self) -> int:
        rows, columns = self.grid
        return rows * columns

    @property
    def patch_values(self) -> int:
        """Numbers one output token carries: an RGB patch."""
        return self.image_channels * self.patch * self.patch

    @property
    def person_channels(self) -> int:
        """Noisy image + clothing-agnostic person (RGB each) + the person's pose (grey)."""
        return 2 * self.image_channels + 1

    @property
    def garment_channels(self) -> int:
        """Garment image (RGB) + the garment's pose (grey; blank for a flat-lay)."""
        return self.image_channels + 1


FULL = TryOnConfig()
# Same class, same key layout, same 12x12 patches, a fraction of the arithmetic: 2 heads of 24
# (rope 4 + 10 + 10), one block of each kind, a 48x72 image (the native size / 12: 4 x 6 = 24
# tokens per image). It runs at the native size too (no weight depends on the grid).
TINY = TryOnConfig(height=72, width=48, hidden=48, heads=2, double_depth=1, single_depth=1,
                   mixer_depth=1, rope_axes=(4, 10, 10), time_features=32)
