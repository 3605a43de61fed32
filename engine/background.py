"""Applying the chosen Background (a photo, transparent or white) to a cut-out subject."""

from __future__ import annotations

import numpy as np
from PIL import Image

from core.engine import Background, Placement
from engine import compose
from engine.compose import Cutout


def apply_background(
    cut: Cutout, background: Background, placement: Placement | None = None
) -> Image.Image:
    """The subject on `background`, at the cut-out's size: RGBA for transparent, else RGB.
    `placement` (the user's move and scale) applies on white and on a photo; a transparent
    output keeps the photo's own framing."""
    if background.kind == "transparent":
        return Image.fromarray(compose.transparent(cut), "RGBA")
    if background.kind == "white":
        return Image.fromarray(compose.on_white(cut, placement), "RGB")
    if background.image is None:
        raise ValueError("a photo background needs its image")
    back = np.asarray(background.image.convert("RGB"))
    return Image.fromarray(compose.on_photo(cut, back, adjustment=placement), "RGB")
