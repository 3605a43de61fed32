"""The try-on MMDiT: predicts the flow velocity of the person image wearing the garment.

Inputs, all at the config's pixel size and in [-1, 1]:
- the noisy image being sampled (RGB);
- the person with the garment's region made clothing-agnostic (RGB), and their pose drawn as a
  grey skeleton (1 channel) -- stacked with the noisy image and embedded as "person" tokens;
- the garment photo (RGB) and its pose (grey; blank for a flat-lay) -- the "garment" tokens;
- the garment's category (CATEGORIES; 0 = none) and the flow time, which modulate every block.

Path: the person tokens first pass `mixer_depth` blocks of their own, then `double_depth` blocks
of joint attention with separate weights per stream, then `single_depth` shared blocks over the
joint sequence; the person tokens are decoded back to 12x12 RGB patches. Person and garment
share the same rotary positions (token (r, c) of one lines up with token (r, c) of the other).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import torch
from torch import Tensor, nn

from engine.diffusion.fashn.config import NULL_CATEGORY, TryOnConfig
from engine.diffusion.fashn.layers import (
    DoubleBlock,
    FinalLayer,
    PatchEmbed,
    SingleBlock,
    TimeEmbedder,
    rotary_angles,
)


@dataclass(frozen=True)
class Conditions:
    """What one sample is conditioned on (batched): see the module's docstring."""

    person: Tensor  # (B, 3, H, W) clothing-agnostic person
    person_pose: Tensor  # (B, 1, H, W)
    garment: Tensor  # (B, 3, H, W)
    garment_pose: Tensor  # (B, 1, H, W)
    category: Tensor  # (B,) long

    def dropped(self) -> Conditions:
        """The unconditional inputs of classifier-free guidance: blank images, null category."""
        return Conditions(*(torch.zeros_like(t) if t.is_floating_point()
                            else torch.full_like(t, NULL_CATEGORY)
                            for t in (getattr(self, f.name) for f in fields(self))))

    def joined(self, other: Conditions) -> Conditions:
        """This batch followed by `other`'s (one forward pass for both halves of guidance)."""
        return Conditions(*(torch.cat((getattr(self, f.name), getattr(other, f.name)))
                            for f in fields(self)))


class TryOnMMDiT(nn.Module):  # type: ignore[misc]
    def __init__(self, config: TryOnConfig) -> None:
        super().__init__()
        self.config = c = config
        # Attribute names are the checkpoint's keys (layers.py).
        self.t_embedder = TimeEmbedder(c.hidden, c.time_features)
        self.y_embedder = nn.Embedding(c.categories + 1, c.hidden)
        self.x_embedder = PatchEmbed(c.person_channels, c.hidden, c.patch)
        self.garment_embedder = PatchEmbed(c.garment_channels, c.hidden, c.patch)
        self.x_patch_mixer = nn.ModuleList(
            SingleBlock(c.hidden, c.heads, c.mlp_hidden) for _ in range(c.mixer_depth))
        # Unused at inference, but a persistent buffer of the published file: kept so that the
        # file's keys and ours are the same set.
        self.register_buffer("patch_mixer_token", torch.zeros(1, 1, c.patch_values))
        self.double_blocks = nn.ModuleList(
            DoubleBlock(c.hidden, c.heads, c.mlp_hidden) for _ in range(c.double_depth))
        self.single_blocks = nn.ModuleList(
            SingleBlock(c.hidden, c.heads, c.mlp_hidden) for _ in range(c.single_depth))
        self.final_layer = FinalLayer(c.hidden, c.patch_values)

    def _rotary(self, rows: int, columns: int, device: torch.device) -> tuple[Tensor, Tensor]:
        """cos and sin of one image grid's rotary angles, (tokens, head_dim / 2) float32.
        Positions are (0, row, column), row-major like the patch tokens."""
        grid = torch.stack(torch.meshgrid(torch.arange(rows), torch.arange(columns),
                                          indexing="ij"), dim=-1).reshape(-1, 2)
        positions = torch.cat((torch.zeros(len(grid), 1, dtype=grid.dtype), grid), dim=1)
        angles = rotary_angles(positions.to(device), self.config.rope_axes,
                               self.config.rope_theta)
        return angles.cos().float(), angles.sin().float()

    def forward(self, noisy: Tensor, times: Tensor, conditions: Conditions) -> Tensor:
        """The velocity (B, 3, H, W) at flow time `times` (B,), 0 = noise, 1 = image. H and W
        are normally the config's (what the weights were trained at); any multiple of the patch
        works, since no weight depends on the grid."""
        patch = self.config.patch
        height, width = noisy.shape[-2:]
        if height % patch or width % patch:
            raise ValueError(f"{width}x{height} does not divide into {patch}x{patch} patches")
        person = self.x_embedder(torch.cat((noisy, conditions.person, conditions.person_pose), 1))
        garment = self.garment_embedder(torch.cat((conditions.garment, conditions.garment_pose),
                                                  1))
        cond = self.t_embedder(times) + self.y_embedder(conditions.category)
        cos, sin = self._rotary(height // patch, width // patch, noisy.device)
        for block in self.x_patch_mixer:
            person = block(person, cond, cos, sin)
        # Both images have the same grid, so the joint sequence repeats the same positions.
        joint_cos, joint_sin = torch.cat((cos, cos)), torch.cat((sin, sin))
        for double in self.double_blocks:
            person, garment = double(person, garment, cond, joint_cos, joint_sin)
        tokens = torch.cat((garment, person), dim=1)
        for single in self.single_blocks:
            tokens = single(tokens, cond, joint_cos, joint_sin)
        patches = self.final_layer(tokens[:, garment.shape[1]:], cond)
        return self._unpatch(patches, height // patch, width // patch)

    def _unpatch(self, patches: Tensor, rows: int, columns: int) -> Tensor:
        """(B, tokens, 3 * p * p) -> (B, 3, H, W); each token's values are channel-major, then
        patch row, then patch column."""
        c = self.config
        batch = patches.shape[0]
        image = patches.view(batch, rows, columns, c.image_channels, c.patch, c.patch)
        return image.permute(0, 3, 1, 4, 2, 5).reshape(
            batch, c.image_channels, rows * c.patch, columns * c.patch)


def parameter_count(config: TryOnConfig) -> int:
    """Parameters of the model `config` builds, counted on the meta device (nothing allocated:
    the full model's count costs no memory)."""
    with torch.device("meta"):
        model = TryOnMMDiT(config)
    return sum(p.numel() for p in model.parameters())
