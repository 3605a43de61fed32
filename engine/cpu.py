"""The built-in CPU engine: background replace and model swap with the bundled models."""

from __future__ import annotations

import numpy as np
from PIL import Image

from core.engine import Background, Placement, ProgressFn, no_progress
from engine import matting, models, quality
from engine.analysis import check_size, find_subject, swap_subject
from engine.arrays import Image8
from engine.background import apply_background
from engine.compose import Cutout
from engine.digital_model import analyse_person, digital_model

MAX_SIDE = 2048  # outputs keep the input's size, the long side capped here


def to_array(image: Image.Image) -> Image8:
    """RGB array, the long side capped at MAX_SIDE (the output keeps this size)."""
    rgb = image.convert("RGB")
    if max(rgb.size) > MAX_SIDE:
        scale = MAX_SIDE / max(rgb.size)
        rgb = rgb.resize(
            (round(rgb.width * scale), round(rgb.height * scale)), Image.Resampling.LANCZOS
        )
    return np.asarray(rgb)


class CpuEngine:
    """Implements core.engine.ImageEngine on the CPU. Safe to call from several threads."""

    def warm_up(self) -> None:
        """Load every model now (the worker calls this at start, so no user waits for it)."""
        models.warm_up()

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        rgb = to_array(photo)
        progress(0.05, "finding the subject")
        subject = find_subject(rgb)
        # The self-check: a cut-out too unsure or still carrying backdrop is refunded, not sold.
        quality.check_cutout(subject.cutout.rgb, subject.cutout.alpha, subject.backdrop)
        progress(0.7, "placing on the background")
        result = apply_background(subject.cutout, background, placement)
        progress(1.0, "done")
        return result

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        from engine.swap_garment import dress_model
        from engine.swap_person import identity_swap

        rgb = to_array(photo)
        model_rgb = to_array(model)
        check_size(rgb)
        check_size(model_rgb, "The model photo")
        progress(0.05, "analysing the photo")
        subject = swap_subject(rgb)
        progress(0.25, "analysing the model")
        digital = digital_model(model_rgb)
        if subject.cutout.kind == "person":
            person = analyse_person(rgb, subject)
            result = identity_swap(person, digital, progress)
            # The swap only recolours face and skin: the photo's matte still fits.
            alpha = subject.cutout.alpha
            feet = subject.cutout.feet_visible
        else:
            result, alpha = dress_model(subject, digital, progress)
            feet = digital.subject.cutout.feet_visible
        progress(0.85, "finishing")
        if background is None:
            image = Image.fromarray(result, "RGB")
        else:
            clean = matting.decontaminate(result, alpha)
            image = apply_background(Cutout(clean, alpha, "person", feet), background, placement)
        progress(1.0, "done")
        return image


__all__ = ["CpuEngine"]
