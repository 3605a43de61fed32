"""The shadows a placed subject puts on the scene: a contact shadow under the feet (light is
blocked there whatever the light), and, for a standing person under directional light, a soft
cast shadow on the ground away from the scene's key light (engine/lighting.key_light).

The key light is found in the background photo, so it is beyond the person: their shadow falls
toward the camera, below the feet in the image, leaning away from the light's side. It is
densest at the feet and softens as it goes (a penumbra grows with the distance from what casts
it); under diffuse light (an even sky, a softly lit room) it fades out and only the contact
shadow stays.
"""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from engine.arrays import Image8, Mask
from engine.lighting import KeyLight, bbox, key_light


class Subject(Protocol):
    """What the shadows need to know of a cut-out (compose.Cutout is one)."""

    @property
    def kind(self) -> str: ...  # person | garment

    @property
    def feet_visible(self) -> bool: ...  # a full-body person whose feet are in the frame


CAST_SHADOW = 0.4  # darkening where the cast shadow is densest (at the feet), under a hard light
CAST_MIN_STRENGTH = 0.05  # below this key-light strength, no cast shadow at all
CAST_LENGTH = 0.2  # the shadow's length toward the camera, per body height (ground foreshortened)
CAST_LEAN = 0.8  # ... and its reach sideways, per body height, with the light fully at one side
CAST_FADE = 0.75  # share of the density lost from the feet to the shadow's far end
CAST_BLUR = (0.01, 0.05)  # its blur at the feet and at the far end, per body height (hard light)
CAST_DIFFUSE_BLUR = 2.0  # the blur is this many times wider under the softest light that casts


def cast_shadow(small: Mask, light: KeyLight) -> Mask:
    """The silhouette `small` (alpha at the shadow's working size) laid on the ground from its
    feet toward the camera, leaning away from `light`: how much each pixel is darkened."""
    sh, sw = small.shape
    x0, y0, x1, y1 = bbox(small)
    height = max(1, y1 - y0)
    feet = float(y1)
    # A point `up` above the feet goes `up * CAST_LENGTH` below them and `up * lean` sideways:
    # x' = x + lean * (feet - y), y' = feet + CAST_LENGTH * (feet - y).
    lean = -light.side * CAST_LEAN
    matrix = np.array([[1.0, -lean, lean * feet],
                       [0.0, -CAST_LENGTH, feet * (1.0 + CAST_LENGTH)]], np.float32)
    laid = np.asarray(cv2.warpAffine(small, matrix, (sw, sh), flags=cv2.INTER_LINEAR),
                      np.float32)
    # How far along the shadow each row is (0 at the feet, 1 at the head's end).
    rows = np.arange(sh, dtype=np.float32)[:, None]
    along = np.clip((rows - feet) / max(1.0, CAST_LENGTH * height), 0.0, 1.0)
    laid *= (1.0 - CAST_FADE * along) * (CAST_SHADOW * light.strength)
    soften = 1.0 + (CAST_DIFFUSE_BLUR - 1.0) * (1.0 - light.strength)
    near = cv2.GaussianBlur(laid, (0, 0), max(1.0, CAST_BLUR[0] * height * soften))
    far = cv2.GaussianBlur(laid, (0, 0), max(1.0, CAST_BLUR[1] * height * soften))
    return np.asarray(near * (1.0 - along) + far * along, np.float32)


SHADOW_CORE = 0.6  # darkening right under the feet
SHADOW_SOFT = 0.3  # and of the wider, softer pool around them
DARK_FLOOR = 70.0  # mean L (of 255) below which a floor gets a stronger shadow


def contact_shadow(
    alpha: Mask, cut: Subject, background: Image8 | None = None
) -> Mask:
    """How much to darken the background under the subject (0..1).

    Drawn and blurred at a quarter of the size: a shadow has no detail, and a wide blur at
    full size would cost more than the whole matte. On a dark floor the same share of
    darkening is hard to see, so it is stronger there. A standing person in a scene with a
    directional key light also casts a shadow on the ground (cast_shadow).
    """
    h, w = alpha.shape
    if not (alpha > 0.5).any():
        return np.zeros_like(alpha)
    q = 4
    size = (max(1, w // q), max(1, h // q))
    small = np.asarray(cv2.resize(alpha, size, interpolation=cv2.INTER_AREA), np.float32)
    sh, sw = small.shape
    x0, y0, x1, y1 = bbox(small)
    if cut.kind == "person" and cut.feet_visible and y1 < sh - 1:  # feet in view
        # Under the feet: a tight, dark contact core in a wider soft pool.
        boost = 1.0
        if background is not None:
            fy0, fy1 = min(h - 1, y1 * q), min(h, y1 * q + max(4, (y1 - y0) * q // 20))
            floor = background[fy0:fy1, x0 * q : max(x0 * q + 1, x1 * q)]
            if floor.size:
                floor_lab = cv2.cvtColor(np.ascontiguousarray(floor[::2, ::2]), cv2.COLOR_RGB2Lab)
                boost = 1.3 if float(floor_lab[..., 0].mean()) < DARK_FLOOR else 1.0
        shadow = np.zeros((sh, sw), np.float32)
        feet_y = y1 - max(1, (y1 - y0) // 200)
        centre = ((x0 + x1) // 2, feet_y)
        core = (max(2, int((x1 - x0) * 0.34)), max(1, int((y1 - y0) * 0.012)))
        pool = (max(3, int((x1 - x0) * 0.55)), max(2, int((y1 - y0) * 0.03)))
        cv2.ellipse(shadow, centre, pool, 0, 0, 360, SHADOW_SOFT * boost, -1)
        soft = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(1.0, pool[1] * 1.2)))
        tight = np.zeros((sh, sw), np.float32)
        cv2.ellipse(tight, centre, core, 0, 0, 360, SHADOW_CORE * boost, -1)
        tight = np.asarray(cv2.GaussianBlur(tight, (0, 0), max(1.0, core[1] * 1.0)))
        shadow = np.maximum(soft, tight)
        if background is not None:
            light = key_light(background, (x0 + x1) / 2 / sw)
            if light.strength >= CAST_MIN_STRENGTH:
                shadow = np.maximum(shadow, cast_shadow(small, light) * boost)
        shadow = np.minimum(shadow, 0.85).astype(np.float32)
    else:
        # A soft drop shadow just below and behind the subject.
        offset = max(1, int(0.012 * sh))
        shadow = np.zeros_like(small)
        shadow[offset:] = small[:-offset]
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.012 * sh)) * 0.28
    return np.clip(cv2.resize(shadow, (w, h), interpolation=cv2.INTER_LINEAR), 0, 1)
