"""The shadow a standing person casts follows the scene's key light (engine/lighting.key_light,
engine/shadows.py): it falls away from the light's side, on the ground below the feet, and not
at all under even light."""

from __future__ import annotations

import numpy as np

from engine import lighting, shadows
from engine.compose import Cutout


def lit_from(side: str, size: tuple[int, int] = (400, 300)) -> np.ndarray:
    """A grey room whose left or right half is much brighter ("none": even light)."""
    h, w = size
    room = np.full((h, w, 3), 90, np.uint8)
    if side == "left":
        room[:, : w // 2] = 210
    elif side == "right":
        room[:, w // 2 :] = 210
    return room


def standing(size: tuple[int, int] = (400, 300)) -> np.ndarray:
    """A person-shaped block: 40 px wide, from row 60 to row 340, feet in view."""
    alpha = np.zeros(size, np.float32)
    alpha[60:340, 130:170] = 1.0
    return alpha


def mass_beside_feet(shadow: np.ndarray) -> tuple[float, float]:
    """The shadow's darkening left and right of the person's columns, from the feet down."""
    floor = shadow[330:]
    return float(floor[:, :120].sum()), float(floor[:, 180:].sum())


def test_the_key_lights_side_is_read_from_the_scene() -> None:
    assert lighting.key_light(lit_from("left")).side < -0.5
    assert lighting.key_light(lit_from("right")).side > 0.5
    assert lighting.key_light(lit_from("none")).strength == 0.0


def test_a_shadow_falls_away_from_the_light_below_the_feet_and_not_under_even_light() -> None:
    alpha = standing()
    cut = Cutout(np.zeros((*alpha.shape, 3), np.uint8), alpha, "person", True)
    left_lit = shadows.contact_shadow(alpha, cut, lit_from("left"))
    left, right = mass_beside_feet(left_lit)
    assert right > 5 * max(left, 1.0), (left, right)  # light from the left: shadow to the right
    right_lit = shadows.contact_shadow(alpha, cut, lit_from("right"))
    left, right = mass_beside_feet(right_lit)
    assert left > 5 * max(right, 1.0), (left, right)
    even = shadows.contact_shadow(alpha, cut, lit_from("none"))
    left, right = mass_beside_feet(even)
    # Only the contact shadow under the feet: symmetric and much smaller than a cast one.
    assert abs(left - right) < 0.1 * max(left, right, 1.0)
    assert left < 0.5 * mass_beside_feet(left_lit)[1]
    # It lies on the ground: nothing darkens the wall above the ankles beside the person.
    assert float(left_lit[:320, 175:].max()) < 0.02
