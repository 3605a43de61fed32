"""Putting a cut-out subject on a new background: placement in the scene, colour and light
match, light wrap, contact shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import Placement, add_note
from engine import scene as scenes
from engine.arrays import Float32, Floats, Image8, Mask
from engine.lighting import bbox as bbox  # re-exported: compose.bbox is the subject's box
from engine.lighting import harmonise, light_wrap
from engine.scene import Scene
from engine.shadows import contact_shadow

GROUND_LINE = scenes.BACKDROP_GROUND  # on a backdrop, full-body shots stand with feet here
FULL_BODY_HEIGHT = scenes.BACKDROP_HEIGHT  # and are at most this tall (fractions of height)
GARMENT_MARGIN = 0.12  # garments keep this margin on every side of a scene
WHITE_MARGIN = 0.06


@dataclass(frozen=True)
class Cutout:
    """A subject with its matte, on the photo's canvas."""

    rgb: Image8  # uint8, edge colours already decontaminated
    alpha: Mask  # float32 0..1
    kind: str  # person | garment
    feet_visible: bool  # a full-body person whose feet are in the frame


def cover(background: Image8, width: int, height: int) -> Image8:
    """The background scaled to cover the canvas and centre-cropped (no distortion).

    The crop is taken in the source first, so only the visible part is resampled.
    """
    bh, bw = background.shape[:2]
    scale = max(width / bw, height / bh)
    crop_w = min(bw, max(1, round(width / scale)))
    crop_h = min(bh, max(1, round(height / scale)))
    x0 = (bw - crop_w) // 2
    y0 = (bh - crop_h) // 2
    crop = background[y0 : y0 + crop_h, x0 : x0 + crop_w]
    return np.asarray(cv2.resize(
        crop,
        (width, height),
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    ), np.uint8)


def cropped_by_frame(cut: Cutout) -> bool:
    x0, y0, x1, y1 = bbox(cut.alpha)
    h, w = cut.alpha.shape
    return y1 >= h - 2 or y0 <= 1 or x0 <= 1 or x1 >= w - 2


def stands_in_scene(cut: Cutout) -> bool:
    """A full-length person, feet in view: placed on the scene's ground at the scene's scale."""
    return cut.kind == "person" and cut.feet_visible and not cropped_by_frame(cut)


def head_cropped_feet_in_view(cut: Cutout) -> bool:
    """The usual catalog shot: head cut by the frame's top, feet in view, sides clear."""
    x0, y0, x1, y1 = bbox(cut.alpha)
    h, w = cut.alpha.shape
    return (cut.kind == "person" and cut.feet_visible and y0 <= 1 and y1 < h - 2
            and x0 > 1 and x1 < w - 2)


def needs_scene(cut: Cutout) -> bool:
    """Whether the placement depends on the scene's ground (else no analysis is needed)."""
    return stands_in_scene(cut) or head_cropped_feet_in_view(cut)


def feet_off_ground(cut: Cutout, scene: Scene, feet: float, height: int) -> bool:
    """Whether a head-cropped person's feet, at row `feet` (pixels) in the shop framing, would
    be on water or on a scene with no verified ground, or off the ground where the scene
    moved a full-length person (scene.moved: the bottom centre is not ground)."""
    if not head_cropped_feet_in_view(cut):
        return False
    if scene.no_ground is not None or scene.moved:
        return True
    return (scene.water_top is not None
            and feet > (scene.water_top - scenes.SHORE_MARGIN) * height)


def placement(
    cut: Cutout, width: int, height: int, margin: float, scene: Scene | None = None
) -> Float32:
    """The 2x3 affine that puts the subject where a shop photo would have it.

    With a `scene`, a full-length person stands on its ground at its scale (a street makes
    them smaller than the frame); without one, or for anything else, the shop framing.
    """
    x0, y0, x1, y1 = bbox(cut.alpha)
    h, w = cut.alpha.shape
    if cut.kind == "person" and cropped_by_frame(cut):
        # Cropped by the photographer (half-body, or the head cut by the frame's top): moving
        # or shrinking it would show the cut edge floating in the scene, so the framing stays.
        scale = min(width / w, height / h)
        ty = (height - h * scale) / 2
        if scene is not None and feet_off_ground(cut, scene, y1 * scale + ty, height):
            # ... except that feet in view never stand on water or unverified ground: scaled
            # about the frame's top (the cut stays on it) until they are on the shore, or below
            # the frame when the scene has no ground (scene.ground > 1: knee-up framing). Where
            # the scene moved a full-length person onto ground, the ground it found fits their
            # feet, not this larger shot's: below the frame too.
            ground = scenes.KNEE_GROUND if scene.moved else scene.ground
            scale *= ground * height / (y1 * scale + ty)
            ty = 0.0
        return np.array([[scale, 0, (width - w * scale) / 2], [0, scale, ty]], np.float32)
    sw, sh = x1 - x0, y1 - y0
    if cut.kind == "person":
        ground, tall = GROUND_LINE, FULL_BODY_HEIGHT
        if scene is not None and stands_in_scene(cut):
            ground, tall = scene.ground, scene.person_height
        feet_x = scene.feet_x if scene is not None and stands_in_scene(cut) else 0.5
        scale = min(tall * height / sh, (1 - 2 * margin) * width / sw)
        if scene is not None and scene.no_ground is not None and stands_in_scene(cut):
            # A medium shot is framed by the head and the legs: the frame's top keeps the head
            # room, its bottom crosses the legs. Shrunk to fit a wide pose's width (a lunge, a
            # barbell held out), the head would sink to mid-frame over the legs' cut; what the
            # pose holds out to the sides may leave the frame instead, as in a tight shot.
            scale = tall * height / sh
        tx = feet_x * width - (x0 + sw / 2) * scale
        ty = ground * height - y1 * scale
    else:
        scale = min((1 - 2 * margin) * width / sw, (1 - 2 * margin) * height / sh, 1.6)
        tx = width / 2 - (x0 + sw / 2) * scale
        ty = height / 2 - (y0 + sh / 2) * scale
    return np.array([[scale, 0, tx], [0, scale, ty]], np.float32)


def warp(cut: Cutout, matrix: Float32, width: int, height: int) -> tuple[Image8, Mask]:
    identity = np.array([[1, 0, 0], [0, 1, 0]], np.float32)
    if cut.alpha.shape == (height, width) and np.allclose(matrix, identity, atol=1e-3):
        return cut.rgb, cut.alpha  # the framing stays (a cropped person): nothing to move
    rgb = np.asarray(cv2.warpAffine(
        cut.rgb, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ), np.uint8)
    alpha = cv2.warpAffine(
        cut.alpha,
        matrix,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return rgb, alpha


def over(
    background: Image8, rgb: Image8, alpha: Floats, shadow: Floats | None = None
) -> Image8:
    if shadow is not None:
        background = np.asarray(cv2.blendLinear(
            background,
            np.zeros_like(background),
            (1.0 - shadow).astype(np.float32),
            shadow.astype(np.float32),
        ), np.uint8)
    alpha = alpha.astype(np.float32)
    return np.asarray(cv2.blendLinear(rgb, background, alpha, 1.0 - alpha), np.uint8)


def adjusted(
    matrix: Float32, cut: Cutout, adjustment: Placement | None, width: int, height: int
) -> Float32:
    """The automatic placement `matrix` followed by the user's adjustment: scaled by its
    factor around the subject's ground point (the bottom centre of its box, where it was put),
    then moved by its offsets (fractions of the frame)."""
    if adjustment is None or adjustment.is_identity or not (cut.alpha > 0.5).any():
        return matrix
    x0, _y0, x1, y1 = bbox(cut.alpha)
    ground = matrix @ np.array([(x0 + x1) / 2, y1, 1.0], np.float32)
    s = adjustment.scale
    out = matrix.astype(np.float32) * s
    out[:, 2] += (1 - s) * ground + np.array([adjustment.x * width, adjustment.y * height])
    return out.astype(np.float32)


def on_photo(
    cut: Cutout,
    background: Image8,
    scene: Scene | None = None,
    adjustment: Placement | None = None,
) -> Image8:
    """The subject in the scene: placed on its ground at its scale (full-length people), lit
    like it, edges wrapped in its light, with a contact shadow. `scene` defaults to the
    analysis of the covered background (pass one to reuse or override it); `adjustment`
    is the user's move and scale, applied after the automatic placement. A scene without
    ground to stand on frames a full-length person from the knees up (scene.note says so)."""
    placed = place_on_photo(cut, background, scene, adjustment)
    canvas, alpha = placed.canvas, placed.alpha
    rgb = harmonise(placed.rgb, alpha, canvas)
    rgb = light_wrap(rgb, alpha, canvas)
    return over(canvas, rgb, alpha, placed.shadow)


@dataclass(frozen=True)
class Placed:
    """The subject where it stands in the scene, before any relighting: the covered background
    (`canvas`), the subject's pixels and matte moved onto it, and its contact shadow."""

    canvas: Image8
    rgb: Image8
    alpha: Mask
    shadow: Mask


def place_on_photo(
    cut: Cutout,
    background: Image8,
    scene: Scene | None = None,
    adjustment: Placement | None = None,
) -> Placed:
    """Our placement rules (ground, scale, the user's adjustment, the shadow), shared by the CPU
    compositing above and the generative engine's relighting (engine/diffusion)."""
    height, width = cut.alpha.shape
    canvas = cover(background, width, height)
    if scene is None and needs_scene(cut):
        scene = scenes.analyse_covering(background, width, height)
    matrix = placement(cut, width, height, GARMENT_MARGIN, scene)
    if scene is not None:
        # Moved, or framed without ground: the output page says so.
        if stands_in_scene(cut) and scene.note:
            add_note(scene.note)
        elif scene.note_without_feet and head_cropped_feet_in_view(cut):
            add_note(scene.note_without_feet)
    matrix = adjusted(matrix, cut, adjustment, width, height)
    rgb, alpha = warp(cut, matrix, width, height)
    return Placed(canvas, rgb, alpha, contact_shadow(alpha, cut, canvas))


def on_white(cut: Cutout, adjustment: Placement | None = None) -> Image8:
    """Pure #FFFFFF, subject centred with a margin: what marketplaces ask for main images."""
    height, width = cut.alpha.shape
    x0, y0, x1, y1 = bbox(cut.alpha)
    scale = min(
        (1 - 2 * WHITE_MARGIN) * width / (x1 - x0), (1 - 2 * WHITE_MARGIN) * height / (y1 - y0), 1.6
    )
    tx = width / 2 - (x0 + x1) / 2 * scale
    ty = height / 2 - (y0 + y1) / 2 * scale
    if cut.kind == "person" and (y1 >= height - 2 or y0 <= 1):
        # A person cut by the frame's top or bottom keeps the size and height it had (the cut
        # stays on the frame's edge); it is only centred sideways.
        scale = 1.0
        tx = width / 2 - (x0 + x1) / 2
        ty = 0.0
    matrix = np.array([[scale, 0, tx], [0, scale, ty]], np.float32)
    matrix = adjusted(matrix, cut, adjustment, width, height)
    rgb, alpha = warp(cut, matrix, width, height)
    white = np.full((height, width, 3), 255, np.uint8)
    return over(white, rgb, alpha)


def transparent(cut: Cutout) -> Image8:
    """RGBA cut-out whose alpha is the matte, in the photo's own framing."""
    alpha8 = np.clip(cut.alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return np.dstack([cut.rgb, alpha8])
