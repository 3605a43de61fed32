"""Building blocks of the try-on MMDiT (a FLUX-style transformer working on pixel patches).

Attribute names are those of the published checkpoint's state dict (``img_mod.lin``,
``linear1``, ``norm.query_norm.scale``, ...): the module tree IS the key layout, so the file
loads with no renaming. Everything else here is ours.

Conventions: tokens are (batch, length, hidden); attention heads are (batch, heads, length,
head_dim); `cond` is the per-sample conditioning vector (time + category), (batch, hidden).
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn
from torch.nn import functional

EPS = 1e-6


def rotary_angles(positions: Tensor, axes: tuple[int, ...], theta: int) -> Tensor:
    """Rotation angles for 2D-plus-constant positions: (length, 3) integer positions -> (length,
    head_dim / 2) angles, axis by axis (each axis gets its own band of frequencies). Computed in
    float64 so that large row/column indices keep their precision before cos/sin."""
    bands = []
    for axis, width in enumerate(axes):
        exponents = torch.arange(0, width, 2, dtype=torch.float64, device=positions.device) / width
        frequencies = theta ** (-exponents)
        bands.append(positions[:, axis].to(torch.float64)[:, None] * frequencies[None, :])
    return torch.cat(bands, dim=-1)


def rotate(heads: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotary position embedding on (batch, heads, length, dim): each adjacent pair of features
    (2i, 2i+1) is turned by its angle. `cos`/`sin` are (length, dim / 2) float32."""
    pairs = heads.float().unflatten(-1, (-1, 2))
    even, odd = pairs[..., 0], pairs[..., 1]
    turned = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1)
    return turned.flatten(-2).type_as(heads)


class RMSNorm(nn.Module):  # type: ignore[misc]
    """Root-mean-square norm with a learnt gain (`scale`), computed in float32."""

    def __init__(self, dim: int) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        wide = x.float()
        normed = wide * torch.rsqrt(wide.pow(2).mean(dim=-1, keepdim=True) + EPS)
        return normed.to(x.dtype) * self.scale


class QKNorm(nn.Module):  # type: ignore[misc]
    """Per-head RMS norms of queries and keys (keeps attention logits bounded)."""

    def __init__(self, head_dim: int) -> None:
        super().__init__()
        self.query_norm = RMSNorm(head_dim)
        self.key_norm = RMSNorm(head_dim)

    def forward(self, q: Tensor, k: Tensor, like: Tensor) -> tuple[Tensor, Tensor]:
        return self.query_norm(q).to(like), self.key_norm(k).to(like)


def split_heads(qkv: Tensor, heads: int) -> tuple[Tensor, Tensor, Tensor]:
    """(batch, length, 3 * hidden) with q, k, v each laid out head by head -> three
    (batch, heads, length, head_dim)."""
    batch, length, _ = qkv.shape
    q, k, v = qkv.view(batch, length, 3, heads, -1).permute(2, 0, 3, 1, 4).unbind(0)
    return q, k, v


def attend(q: Tensor, k: Tensor, v: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
    """Rotary-embedded scaled dot-product attention; heads merged back: (batch, length, hidden)."""
    out = functional.scaled_dot_product_attention(rotate(q, cos, sin), rotate(k, cos, sin), v)
    return out.transpose(1, 2).flatten(2)


def modulate(x: Tensor, shift: Tensor, scale: Tensor) -> Tensor:
    return x * (1 + scale) + shift


class Modulation(nn.Module):  # type: ignore[misc]
    """adaLN: the conditioning vector -> `sets` triples of (shift, scale, gate), each
    (batch, 1, hidden) so that they broadcast over tokens."""

    def __init__(self, hidden: int, sets: int) -> None:
        super().__init__()
        self.sets = sets
        self.lin = nn.Linear(hidden, 3 * sets * hidden)

    def forward(self, cond: Tensor) -> list[Tensor]:
        return list(self.lin(functional.silu(cond))[:, None, :].chunk(3 * self.sets, dim=-1))


class Attention(nn.Module):  # type: ignore[misc]
    """Holds one stream's attention weights; the joint attention itself is done by the block."""

    def __init__(self, hidden: int, heads: int) -> None:
        super().__init__()
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.norm = QKNorm(hidden // heads)
        self.proj = nn.Linear(hidden, hidden)


def feed_forward(hidden: int, inner: int) -> nn.Sequential:
    # A Sequential so that its layers are keyed .0 and .2, as in the checkpoint.
    return nn.Sequential(nn.Linear(hidden, inner), nn.GELU(approximate="tanh"),
                         nn.Linear(inner, hidden))


class DoubleBlock(nn.Module):  # type: ignore[misc]
    """Joint attention over person ("img") and garment ("txt") tokens, each stream with its own
    modulation, projections and MLP."""

    def __init__(self, hidden: int, heads: int, mlp_hidden: int) -> None:
        super().__init__()
        self.heads, self.hidden = heads, hidden
        self.img_mod = Modulation(hidden, sets=2)
        self.img_attn = Attention(hidden, heads)
        self.img_mlp = feed_forward(hidden, mlp_hidden)
        self.txt_mod = Modulation(hidden, sets=2)
        self.txt_attn = Attention(hidden, heads)
        self.txt_mlp = feed_forward(hidden, mlp_hidden)

    def _enter(self, mod: Modulation, attn: Attention, tokens: Tensor,
               cond: Tensor) -> tuple[list[Tensor], list[Tensor]]:
        """One stream's q, k, v (heads) and its modulation for the rest of the block."""
        shift, scale, *rest = mod(cond)
        normed = functional.layer_norm(tokens, (self.hidden,), eps=EPS)
        q, k, v = split_heads(attn.qkv(modulate(normed, shift, scale)), self.heads)
        q, k = attn.norm(q, k, v)
        return [q, k, v], rest

    def _leave(self, attn: Attention, mlp: nn.Sequential, tokens: Tensor, mixed: Tensor,
               mods: list[Tensor]) -> Tensor:
        gate, shift, scale, gate2 = mods
        tokens = tokens + gate * attn.proj(mixed)
        normed = functional.layer_norm(tokens, (self.hidden,), eps=EPS)
        return tokens + gate2 * mlp(modulate(normed, shift, scale))

    def forward(self, person: Tensor, garment: Tensor, cond: Tensor, cos: Tensor,
                sin: Tensor) -> tuple[Tensor, Tensor]:
        garment_heads, garment_mods = self._enter(self.txt_mod, self.txt_attn, garment, cond)
        person_heads, person_mods = self._enter(self.img_mod, self.img_attn, person, cond)
        # One sequence, garment tokens first, as the weights were trained.
        q, k, v = (torch.cat(pair, dim=2)
                   for pair in zip(garment_heads, person_heads, strict=True))
        joint = attend(q, k, v, cos, sin)
        split = garment.shape[1]
        garment = self._leave(self.txt_attn, self.txt_mlp, garment, joint[:, :split],
                              garment_mods)
        person = self._leave(self.img_attn, self.img_mlp, person, joint[:, split:], person_mods)
        return person, garment


class SingleBlock(nn.Module):  # type: ignore[misc]
    """One shared-weight block: attention and MLP computed in parallel from one input projection
    (`linear1`) and merged by one output projection (`linear2`)."""

    def __init__(self, hidden: int, heads: int, mlp_hidden: int) -> None:
        super().__init__()
        self.heads, self.hidden, self.mlp_hidden = heads, hidden, mlp_hidden
        self.linear1 = nn.Linear(hidden, 3 * hidden + mlp_hidden)
        self.linear2 = nn.Linear(hidden + mlp_hidden, hidden)
        self.norm = QKNorm(hidden // heads)
        self.modulation = Modulation(hidden, sets=1)

    def forward(self, tokens: Tensor, cond: Tensor, cos: Tensor, sin: Tensor) -> Tensor:
        shift, scale, gate = self.modulation(cond)
        normed = functional.layer_norm(tokens, (self.hidden,), eps=EPS)
        qkv, inner = self.linear1(modulate(normed, shift, scale)).split(
            [3 * self.hidden, self.mlp_hidden], dim=-1)
        q, k, v = split_heads(qkv, self.heads)
        q, k = self.norm(q, k, v)
        mixed = attend(q, k, v, cos, sin)
        merged = torch.cat((mixed, functional.gelu(inner, approximate="tanh")), dim=-1)
        return tokens + gate * self.linear2(merged)


class PatchEmbed(nn.Module):  # type: ignore[misc]
    """Non-overlapping patches -> tokens: a strided convolution, (batch, C, H, W) ->
    (batch, rows * columns, hidden), row-major."""

    def __init__(self, channels: int, hidden: int, patch: int) -> None:
        super().__init__()
        self.proj = nn.Conv2d(channels, hidden, kernel_size=patch, stride=patch)

    def forward(self, images: Tensor) -> Tensor:
        return self.proj(images).flatten(2).transpose(1, 2)


class MLPEmbedder(nn.Module):  # type: ignore[misc]
    def __init__(self, features: int, hidden: int) -> None:
        super().__init__()
        self.in_layer = nn.Linear(features, hidden)
        self.out_layer = nn.Linear(hidden, hidden)

    def forward(self, x: Tensor) -> Tensor:
        return self.out_layer(functional.silu(self.in_layer(x)))


class TimeEmbedder(nn.Module):  # type: ignore[misc]
    """Flow time in [0, 1] -> a hidden-sized vector: sinusoids of 1000 t, then an MLP."""

    def __init__(self, hidden: int, features: int) -> None:
        super().__init__()
        self.features = features
        self.mlp = MLPEmbedder(features, hidden)

    def forward(self, times: Tensor) -> Tensor:
        half = self.features // 2
        # Scaled in the times' own dtype before widening: what the weights were trained with.
        scaled = (times * 1000.0).float()
        frequencies = torch.exp(-math.log(10_000) * torch.arange(half, dtype=torch.float32) / half)
        angles = scaled[:, None] * frequencies.to(times.device)[None, :]
        waves = torch.cat((torch.cos(angles), torch.sin(angles)), dim=-1).to(times.dtype)
        return self.mlp(waves.to(self.mlp.in_layer.weight.dtype))


class FinalLayer(nn.Module):  # type: ignore[misc]
    """Tokens -> RGB patches, after a last adaLN (shift, scale; no gate)."""

    def __init__(self, hidden: int, values: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.linear = nn.Linear(hidden, values)
        # Sequential(SiLU, Linear): keyed adaLN_modulation.1 in the checkpoint.
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2 * hidden))

    def forward(self, tokens: Tensor, cond: Tensor) -> Tensor:
        shift, scale = self.adaLN_modulation(cond)[:, None, :].chunk(2, dim=-1)
        normed = functional.layer_norm(tokens, (self.hidden,), eps=EPS)
        return self.linear(modulate(normed, shift, scale))
