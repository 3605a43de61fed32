"""Whether a model swap can carry a photo's person to a digital model's skin tone: the one rule
that both the engine's gate (engine/swap_person.py, before any work) and the checks before any
charge (the model list given an upload, the submit) apply, so they can never disagree.

Tones are CIE Lab (L 0-100, a and b around 0) of the cheeks, measured by the engine: the
photo's in its analysis (core/photos/analysis.py `tone`), a catalog model's once, stored on the
item (activities/catalog.py). A tone that is not known (no face measured yet) rules nothing out:
the engine's own gate still applies when it renders.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

# How far apart (CIE ΔE76, cheek to cheek) the photo's and the model's skin tones may be. The
# recolour and the face blend carry a tone change evenly up to about this far: 2.4-17.2 between
# the 8 people and people-wild photos whose faces swap and the catalog models of a related
# tone. Light skin to model-4's dark tone, or dark skin to a light model, measures 23-33, and
# every such output showed pale bands and blotches across the face (the photo's highlights
# and the model's shading disagree): refused before any work.
MAX_TONE_GAP = 20.0

TONE_TOO_FAR = (
    "We could not swap to this model: their skin tone is too far from the person's in the "
    "photo for an even result (a model with a closer skin tone works best)"
)

Lab = Sequence[float]  # (L, a, b), CIE units


def tone_gap(photo: Lab, model: Lab) -> float:
    """CIE ΔE76 between two skin tones."""
    return math.dist(tuple(photo), tuple(model))


def too_far(gap: float | None) -> bool:
    """The rule itself: a gap over MAX_TONE_GAP cannot be bridged evenly (None: not known)."""
    return gap is not None and gap > MAX_TONE_GAP


def tone_refusal(photo: Lab | None, model: Lab | None) -> str | None:
    """Why the photo's person cannot be swapped to the model, or None when they can (or when
    either tone is not known)."""
    if photo is None or model is None:
        return None
    return TONE_TOO_FAR if too_far(tone_gap(photo, model)) else None


def lab_from_opencv(lab8: Iterable[float]) -> tuple[float, float, float]:
    """OpenCV's 8-bit Lab (L 0-255, a and b offset by 128; a NumPy triple does) in CIE units."""
    lightness, a, b = (float(value) for value in lab8)
    return (lightness * 100.0 / 255.0, a - 128.0, b - 128.0)


def stored_tone(value: object) -> tuple[float, float, float] | None:
    """A tone as stored in JSON ([L, a, b]), or None when absent or malformed."""
    if not isinstance(value, list | tuple) or len(value) != 3:
        return None
    try:
        return (float(value[0]), float(value[1]), float(value[2]))
    except (TypeError, ValueError):
        return None


def tone_json(tone: Lab) -> list[float]:
    """A tone as it is stored (3 decimals: far below any difference the rule can see)."""
    return [round(float(v), 3) for v in tone]
