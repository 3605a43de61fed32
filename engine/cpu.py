"""The built-in CPU engine: background replace and model swap with the bundled models."""

from __future__ import annotations

import numpy as np
from PIL import Image

from core.engine import Background, NoGarmentFound, NoPersonFound, NoSubjectFound, ProgressFn
from core.engine import no_progress as _no_progress
from engine import compose, models
from engine.analysis import Subject, find_subject

MAX_SIDE = 2048


def _to_array(image: Image.Image) -> np.ndarray:
    """RGB array, the long side capped at MAX_SIDE (the output keeps this size)."""
    rgb = image.convert("RGB")
    if max(rgb.size) > MAX_SIDE:
        scale = MAX_SIDE / max(rgb.size)
        rgb = rgb.resize(
            (round(rgb.width * scale), round(rgb.height * scale)), Image.Resampling.LANCZOS
        )
    return np.asarray(rgb)


def apply_background(subject: Subject, background: Background) -> Image.Image:
    cut = subject.cutout
    if background.kind == "transparent":
        return Image.fromarray(compose.transparent(cut), "RGBA")
    if background.kind == "white":
        return Image.fromarray(compose.on_white(cut), "RGB")
    assert background.image is not None
    back = np.asarray(background.image.convert("RGB"))
    return Image.fromarray(compose.on_photo(cut, back), "RGB")


class CpuEngine:
    """Implements core.engine.ImageEngine on the CPU. Safe to call from several threads."""

    def warm_up(self) -> None:
        models.warm_up()

    def replace_background(
        self, photo: Image.Image, background: Background, progress: ProgressFn = _no_progress
    ) -> Image.Image:
        rgb = _to_array(photo)
        progress(0.05, "finding the subject")
        subject = find_subject(rgb)
        progress(0.7, "placing on the background")
        result = apply_background(subject, background)
        progress(1.0, "done")
        return result

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = _no_progress,
    ) -> Image.Image:
        from engine import swap

        rgb = _to_array(photo)
        model_rgb = _to_array(model)
        progress(0.05, "analysing the photo")
        try:
            subject = find_subject(rgb)
        except NoSubjectFound:
            raise NoSubjectFound(
                "No person or garment was found in the photo. Use a photo of a person wearing "
                "the garment, or of the garment alone on a plain background."
            ) from None
        progress(0.25, "analysing the model")
        if subject.cutout.kind == "person":
            result = swap.identity_swap(rgb, subject, model_rgb, progress)
        else:
            result = swap.dress_model(rgb, subject, model_rgb, progress)
        progress(0.85, "finishing")
        if background is not None:
            result_subject = find_subject(result, want="person")
            image = apply_background(result_subject, background)
        else:
            image = Image.fromarray(result, "RGB")
        progress(1.0, "done")
        return image


__all__ = ["CpuEngine", "NoGarmentFound", "NoPersonFound"]
