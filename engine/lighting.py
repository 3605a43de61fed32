"""Light from the scene on a placed subject: its brightness, contrast and colour moved toward
the light around where it stands, its saturation lowered in a dark, colourless place
(harmonise), the scene's key light (key_light: where the brightest region is and how
directional the light is, for engine/shadows.py) and the scene's light wrapped round its edges
(light_wrap).

Colours are measured in CIE Lab (L* 0..100, a* and b* signed: what OpenCV gives for float RGB
in 0..1). The tone and colour changes are one 8-bit lookup table per RGB channel, so matching
costs a few thousand sampled pixels' statistics and one cv2.LUT over the subject's box; the
saturation (which no per-channel table can change) is one scaling of a*, b* over the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import Float32, Floats, Image8, Mask


def bbox(alpha: Floats, threshold: float = 0.5) -> tuple[int, int, int, int]:
    x, y, w, h = cv2.boundingRect((alpha > threshold).astype(np.uint8))
    return x, y, x + w, y + h


# Brightness. A shop photo is exposed for a normally lit place, so the scene's own exposure where
# the person stands (LabStats.exposure) says how far to move it, whatever the person wears: a
# night scene takes the whites down toward a light grey, a bright one lifts the mid-tones a
# little, a normally lit one (a day street, a lit room, a studio) leaves the shop's exposure.
NORMAL_EXPOSURE = 65.0  # L*: below this a place is darker than a shop photo's (fixtures: day
#                         streets and rooms 67-86, dusk and sunset 62-65, night and neon 21-55)
BRIGHT_EXPOSURE = 85.0  # L*: above this it is brighter (a white room, a sunlit terrace)
DARKEN_MATCH = 0.8  # share of the shortfall below NORMAL_EXPOSURE taken over
BRIGHTEN_MATCH = 0.5  # share of the excess above BRIGHT_EXPOSURE taken over
DARKEN_LIMIT = 30.0  # L*: a mid-tone goes down by at most this (a white top ends near L* 55)
BRIGHTEN_LIMIT = 4.0  # L*: and up by at most this: more washes a garment's detail out
KEY_PERCENTILE = 90.0  # LabStats.key: the lightness of the brightest tenth
# A plain backdrop has no highlights (its key is its mean): a mid-grey studio paper (L* ~54) is
# a normally lit studio, not a dim place. Its normal exposure is this, up to FLAT_SCENE spread.
STUDIO_EXPOSURE = 40.0
# Contrast: the spread of L* follows the scene's a little (haze and night flatten, hard light
# deepens). A plain backdrop (spread under FLAT_SCENE) says nothing about its light: no change.
NORMAL_SPREAD = 18.0  # L*: the spread of a normally lit place (day fixtures: 13-25)
FLAT_SCENE = 4.0
CONTRAST_MATCH = 0.3  # exponent on the ratio of the two spreads
CONTRAST_RANGE = (0.95, 1.06)  # the gain's bounds: more changes how the fabric reads
# Colour temperature: the scene's light colour is its local mean a*, b* (grey-world around the
# person: under neon, moonlight or a sunset that mean is the light's colour). The subject takes
# a share of it as a white balance shift (von Kries: one gain per linear RGB channel, so whites
# take the tint, blacks stay black and every colour keeps its hue order). The bounds are what
# keeps a person themselves: skin and garments lean toward the light, never turn into its colour.
NEUTRAL_LIGHT = 3.0  # a*b* chroma of a scene light counted as white: no cast (a shop's balance)
CAST_SHARE = 0.4  # share of the scene light's chroma (beyond NEUTRAL_LIGHT) taken over
CAST_NIGHT = 0.4  # ... plus up to this much more in the dark: at night or under neon the
#                   coloured light is all there is (no white daylight fills in); full at
#                   NIGHT_DEPTH L* below NORMAL_EXPOSURE
NIGHT_DEPTH = 30.0
CAST_LIMIT = 12.0  # and at most this (a*b* distance) on a white: neon at 40+ gives 12; darker
#                    colours shift less (the same linear gains), black not at all
CAST_WHITE = 92.0  # L*: the white that CAST_LIMIT and the cast are measured on
LOCAL_PAD = (0.5, 0.15)  # the light "where they stand": the box padded by these shares (x, y)
# Saturation at night. In the dark the eye sees less colour (rods take over from cones) and a
# night photo shows it: a moonlit field is one tint, with few colours of its own. A subject lit
# for a shop keeps its full saturation under any per-channel table and looks pasted there. So
# its Lab chroma is scaled down (same L* and hue; skin is left to the cast: desaturate) by up
# to DESAT_LIMIT, in proportion to how dark the place is (the cast's night share:
# nothing at NORMAL_EXPOSURE or brighter) and how colourless (the spread of a*b* around the
# scene's mean, i.e. its colours beyond the light's cast: DESAT_GREY or less counts fully,
# DESAT_VIVID or more not at all: neon streets, sunsets and a lawn at dusk keep their colour).
# Fixtures (the light around a standing person): moonlit field-01 13.5, dark cellar bg-2 13.4,
# neon bg-3 28.5, dusk lawn scene-04 36.
DESAT_LIMIT = 0.4
DESAT_GREY = 10.0
DESAT_VIVID = 25.0


@dataclass(frozen=True)
class LabStats:
    """Mean L*, a*, b*, the spread (standard deviation) of L* and the key: the L* of the
    brightest tenth (skin, a white top, lit surfaces)."""

    light: float
    a: float
    b: float
    spread: float
    key: float
    colour: float  # the spread of a*, b* about their means: the place's own colours

    @property
    def exposure(self) -> float:
        """How strongly a place is lit, in L*: halfway between its mean (dark materials
        pull it down) and its key (a few lamps or a bright sky push that up)."""
        return 0.5 * (self.light + self.key)


def lab_stats(pixels: Image8) -> LabStats:
    """Statistics of RGB pixels (any shape with 3 channels last)."""
    lab = cv2.cvtColor(pixels.reshape(-1, 1, 3).astype(np.float32) / 255.0, cv2.COLOR_RGB2Lab)
    flat = np.asarray(lab, np.float32).reshape(-1, 3)
    mean = flat.mean(axis=0)
    colour = float(np.sqrt(flat[:, 1].var() + flat[:, 2].var()))
    return LabStats(float(mean[0]), float(mean[1]), float(mean[2]), float(flat[:, 0].std()),
                    float(np.percentile(flat[:, 0], KEY_PERCENTILE)), colour)


def local_region(background: Image8, box: tuple[int, int, int, int]) -> Image8:
    """The background around (and behind) the subject's box: the light where it stands."""
    h, w = background.shape[:2]
    x0, y0, x1, y1 = box
    pad_x, pad_y = int((x1 - x0) * LOCAL_PAD[0]), int((y1 - y0) * LOCAL_PAD[1])
    return background[max(0, y0 - pad_y) : min(h, y1 + pad_y),
                      max(0, x0 - pad_x) : min(w, x1 + pad_x)]


def scene_light(background: Image8, box: tuple[int, int, int, int]) -> LabStats:
    """The light where the subject stands: Lab statistics of local_region, sampled on a grid
    of about 64 x 64 (the mean needs no more)."""
    region = local_region(background, box)
    step = max(1, max(region.shape[:2]) // 64)
    return lab_stats(np.ascontiguousarray(region[::step, ::step]))


def _y_of(light: float) -> float:
    """Relative luminance Y (0..1) of a CIE lightness L*."""
    return float(((light + 16.0) / 116.0) ** 3 if light > 8.0 else light / 903.3)


def _to_linear(srgb: Floats) -> Floats:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def _to_srgb(linear: Floats) -> Floats:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def darkness(light: LabStats, normal: float = NORMAL_EXPOSURE) -> float:
    """0 at the `normal` exposure or brighter .. 1 at NIGHT_DEPTH L* below it."""
    return float(np.clip((normal - light.exposure) / NIGHT_DEPTH, 0.0, 1.0))


def plainness(light: LabStats) -> float:
    """1 for a plain backdrop (L* spread under FLAT_SCENE) .. 0 from twice that."""
    return float(np.clip((2.0 * FLAT_SCENE - light.spread) / FLAT_SCENE, 0.0, 1.0))


def normal_exposure(light: LabStats) -> float:
    """The exposure of a normally lit place like this one: NORMAL_EXPOSURE, or lower for a
    plain backdrop (no highlights: a mid-grey paper is a lit studio, not a dim place)."""
    return NORMAL_EXPOSURE + plainness(light) * (STUDIO_EXPOSURE - NORMAL_EXPOSURE)


def saturation_kept(light: LabStats) -> float:
    """The share of its chroma a subject keeps under this light (1: all, in any lit place).
    A plain backdrop, black paper included, says nothing about the light: all of it."""
    grey = float(np.clip((DESAT_VIVID - light.colour) / (DESAT_VIVID - DESAT_GREY), 0.0, 1.0))
    night = darkness(light, normal_exposure(light)) * (1.0 - plainness(light))
    return 1.0 - DESAT_LIMIT * night * grey


def _ramp_table(points: list[tuple[int, float]]) -> Image8:
    """An 8-bit lookup table (0..255 for 0..1) through these (level, value) points."""
    xs, ys = zip(*points, strict=True)
    return np.asarray(np.round(np.interp(np.arange(256), xs, ys) * 255.0), np.uint8)


# Skin (OpenCV HSV: hue 0..179 in half degrees, saturation 0..255): reddish to orange hues at a
# moderate saturation, from pale to dark skin. A saturated red or orange garment (S 200+) is
# not skin; a beige one is taken for it (it keeps its colour too).
SKIN_HUE = _ramp_table([(0, 1.0), (20, 1.0), (28, 0.0), (165, 0.0), (172, 1.0), (255, 1.0)])
SKIN_SATURATION = _ramp_table([(0, 0.0), (15, 0.0), (30, 1.0), (160, 1.0), (200, 0.0),
                               (255, 0.0)])


def desaturate(rgb: Image8, keep: float) -> Image8:
    """`rgb` with its Lab chroma scaled by `keep` (L* and hue unchanged), in 8-bit Lab.
    Skin is left to the light's cast: the cast of a coloured night light already greys it
    (moonlight takes half of its chroma), and a face greyed further reads as lifeless, not
    as night."""
    if keep >= 1.0:
        return rgb
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    skin = cv2.multiply(cv2.LUT(hsv[..., 0], SKIN_HUE), cv2.LUT(hsv[..., 1], SKIN_SATURATION),
                        scale=1.0 / 255.0)
    # The share kept per pixel in 1/128ths, in 16-bit integers: a float pass over a tall
    # person's box costs as much again as the two colour conversions.
    kept = ((skin.astype(np.int16) * round(128 * (1.0 - keep)) + 128) >> 8) + round(128 * keep)
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2Lab)
    for channel in (1, 2):  # a*, b*: 128 is neutral
        chroma = lab[..., channel].astype(np.int16) - 128
        lab[..., channel] = ((chroma * kept + 64) >> 7) + 128
    return np.asarray(cv2.cvtColor(lab, cv2.COLOR_Lab2RGB), np.uint8)


def cast_of(light: LabStats) -> tuple[float, float]:
    """The a*, b* shift a white (CAST_WHITE) of the subject takes under this scene light."""
    chroma = float(np.hypot(light.a, light.b))
    if chroma <= NEUTRAL_LIGHT:
        return 0.0, 0.0
    night = darkness(light)
    size = min(CAST_LIMIT, (CAST_SHARE + CAST_NIGHT * night) * (chroma - NEUTRAL_LIGHT))
    return size * light.a / chroma, size * light.b / chroma


def channel_gains(cast: tuple[float, float]) -> Float32:
    """Linear-RGB gains that turn a white (CAST_WHITE) into that white shifted by `cast` in a*,
    b*, at the same luminance (so the cast changes colour, not brightness)."""
    greys = np.array([[[CAST_WHITE, 0.0, 0.0], [CAST_WHITE, cast[0], cast[1]]]], np.float32)
    srgb = np.asarray(cv2.cvtColor(greys, cv2.COLOR_Lab2RGB), np.float64)[0]
    linear = _to_linear(np.clip(srgb, 0.0, 1.0))
    gains = linear[1] / np.maximum(linear[0], 1e-6)
    luminance = float(gains @ np.array([0.2126, 0.7152, 0.0722]))
    return np.asarray(gains / luminance, np.float32)


def exposure_shift(light: LabStats) -> float:
    """The L* change of a mid-tone under this scene light (negative: darker)."""
    normal = normal_exposure(light)
    if light.exposure < normal:
        return max(-DARKEN_LIMIT, DARKEN_MATCH * (light.exposure - normal))
    if light.exposure > BRIGHT_EXPOSURE:
        return min(BRIGHTEN_LIMIT, BRIGHTEN_MATCH * (light.exposure - BRIGHT_EXPOSURE))
    return 0.0


def contrast_gain(light: LabStats) -> float:
    if light.spread < FLAT_SCENE:
        return 1.0
    ratio = (light.spread + 3.0) / (NORMAL_SPREAD + 3.0)
    return float(np.clip(ratio ** CONTRAST_MATCH, *CONTRAST_RANGE))


def tone_table(subject: LabStats, light: LabStats) -> Image8:
    """The lookup table (1 x 256 x 3) that relights the subject: contrast about its mean, then
    exposure (darkening scales linear light, so whites dim as under a weaker light; brightening
    scales it too, with a shoulder that keeps white white) and the colour cast, both in linear
    light."""
    levels = np.arange(256, dtype=np.float64) / 255.0
    pivot = float(_to_srgb(np.array(_y_of(subject.light))))
    linear = _to_linear(np.clip(pivot + (levels - pivot) * contrast_gain(light), 0.0, 1.0))
    before = _y_of(NORMAL_EXPOSURE)
    after = _y_of(NORMAL_EXPOSURE + exposure_shift(light))
    if after < before:
        linear = linear * (after / before)
    elif after > before:
        # y -> k y / (1 + (k - 1) y): slope k in the shadows, 1 stays 1; k puts `before` at `after`.
        k = after * (1.0 - before) / (before * (1.0 - after))
        linear = k * linear / (1.0 + (k - 1.0) * linear)
    gains = channel_gains(cast_of(light)).astype(np.float64)
    channels = [_to_srgb(linear * g) for g in gains]
    return np.clip(np.stack(channels, axis=-1)[None] * 255.0 + 0.5, 0, 255).astype(np.uint8)


def harmonise(rgb: Image8, alpha: Mask, background: Image8) -> Image8:
    """Move the subject's brightness, contrast and colour temperature part of the way toward
    the scene's light around where it stands, and lower its saturation in a dark, colourless
    place (bounded: see the constants above). On a neutral, normally lit backdrop it is left
    as the shop lit it. The saturation changes first, so the light's cast still tints it."""
    inside = alpha > 0.5
    if np.count_nonzero(inside) < 100:
        return rgb
    box = bbox(alpha, 0.01)
    x0, y0, x1, y1 = box
    sample = inside[y0:y1:5, x0:x1:5]  # statistics need a few thousand pixels, not all
    subject = lab_stats(np.ascontiguousarray(rgb[y0:y1:5, x0:x1:5][sample]))
    light = scene_light(background, box)
    table = tone_table(subject, light)
    region = desaturate(np.ascontiguousarray(rgb[y0:y1, x0:x1]), saturation_kept(light))
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.LUT(region, table)
    return out


# The key light: the brightest region of the scene above its floor, and how directional it is.
KEY_TOP = 0.7  # the light is looked for in the frame's top 70% (below lies lit floor, not lamps)
KEY_SHARE = 97.0  # percentile of the blurred L* that marks the brightest region
# Directional when the brightest region stands out (contrast of its L* over the mean) and is
# compact (its horizontal spread, in frame widths): a sun, a spot, a lit window. A bright sky
# across the whole frame or an evenly lit room is diffuse light: no cast shadow.
KEY_CONTRAST = (0.2, 0.45)  # strength ramps from 0 to 1 between these contrasts
KEY_SPREAD = (0.25, 0.12)  # ... and from 0 (this spread or wider) to 1 (this or tighter)
KEY_SPAN = 0.35  # a light this far (frame widths) or more beside the subject is fully at its side


@dataclass(frozen=True)
class KeyLight:
    """Where the scene's main light is, seen from the subject, and how hard it is."""

    x: float  # the brightest region's centre, as a fraction of the frame's width
    y: float  # and of its height
    side: float  # -1: to the subject's left in the image .. +1: to its right
    strength: float  # 0: flat, diffuse light (no cast shadow) .. 1: one hard source


def key_light(background: Image8, subject_x: float = 0.5) -> KeyLight:
    """The key light of the scene for a subject centred at `subject_x` (fraction of the width).

    Read from a 48-pixel-wide thumbnail: a light source is a region, not a detail.
    """
    h, w = background.shape[:2]
    top = background[: max(1, int(KEY_TOP * h))]
    th = max(4, round(48 * top.shape[0] / w))
    small = cv2.resize(top, (48, th), interpolation=cv2.INTER_AREA)
    light = cv2.cvtColor(small.astype(np.float32) / 255.0, cv2.COLOR_RGB2Lab)[..., 0]
    light = np.asarray(cv2.GaussianBlur(light, (0, 0), 1.5), np.float32)
    bright = light >= np.percentile(light, KEY_SHARE)
    ys, xs = np.nonzero(bright)
    cx, cy = float(xs.mean() + 0.5) / 48, float(ys.mean() + 0.5) / th * KEY_TOP
    peak = float(light[bright].mean())
    contrast = (peak - float(light.mean())) / max(peak, 1.0)
    spread = float(xs.std()) / 48

    def ramp(value: float, start: float, end: float) -> float:
        return float(np.clip((value - start) / (end - start), 0.0, 1.0))

    strength = ramp(contrast, *KEY_CONTRAST) * ramp(spread, *KEY_SPREAD)
    side = float(np.clip((cx - subject_x) / KEY_SPAN, -1.0, 1.0))
    return KeyLight(cx, cy, side, strength)


WRAP_STRENGTH = 0.45  # at the very edge, this share of the colour is the scene's light
WRAP_REACH = 0.006  # how far the wrap reaches into the subject (fraction of the height)


def light_wrap(rgb: Image8, alpha: Mask, background: Image8) -> Image8:
    """Blend the blurred scene into the subject's outer band, as light bending round an edge
    does, so the edge takes the scene's colour instead of the old backdrop's.

    The light is the background's blur where the subject does not hide it (the part of the
    scene behind the subject does not shine round it). Computed at a quarter of the size:
    the light has no detail.
    """
    h, w = alpha.shape
    if not (alpha > 0.5).any():
        return rgb
    q = 4
    size = (max(1, w // q), max(1, h // q))
    small_alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    small_back = cv2.resize(background, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    sigma = max(1.0, WRAP_REACH * h / q)
    outside = 1.0 - small_alpha
    spread = cv2.GaussianBlur(outside, (0, 0), sigma)
    light = np.asarray(cv2.GaussianBlur(small_back * outside[..., None], (0, 0), sigma))
    light = light / np.maximum(spread, 1e-3)[..., None]
    weight = np.clip(spread * (2.0 * WRAP_STRENGTH), 0.0, WRAP_STRENGTH) * (small_alpha > 0.01)
    x0, y0, x1, y1 = bbox(alpha, 0.01)
    full_light = cv2.resize(np.clip(light, 0, 255).astype(np.uint8), (w, h),
                            interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    full_weight = cv2.resize(weight.astype(np.float32), (w, h),
                             interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.blendLinear(full_light, np.ascontiguousarray(rgb[y0:y1, x0:x1]),
                                        full_weight, 1.0 - full_weight)
    return out
