"""The engine's self-check: every output is scored before it is delivered.

Scores (all 0..1 shares, except the skin shift in CIE ΔE76):
- matte confidence: the share of the subject's matte that is undecided (alpha in 0.1-0.9);
- residual backdrop: the share of the matte's inner edge band that still has the backdrop's
  colour (a halo of backdrop cut out with the subject);
- change: for a person swap, the share of the person's pixels that changed visibly, the mean
  colour shift over the visible skin, and the largest change inside the person (in 8-bit levels,
  the level reached by the top 0.1% of the person's pixels: a swap whose largest change is a
  faint tint gives the customer their own photo back);
- tone gap: for a person swap, how far the model's skin tone is from the photo's (checked
  before any work, as is how far the face is turned);
- skin consistency: for a person swap, how much further apart the face's skin tone and the
  neck's and arms' tone are after the swap than before (a face swapped to a darker tone over
  arms that kept the old one);
- garment fit: for a dressed model, the share of the body region the garment should cover that it
  does cover, the share of the garment that lands on the body, the holes through the placed
  garment (inside its outline, on the body), the share of the garment's region where the
  model's own clothing still shows unchanged, the share of the neckline and shoulders that shows
  skin painted where the model's own top was, and the share of the arms seen between the garment
  and its own cloth further out (a sleeve hanging beside the arm instead of around it).

An output below a threshold is not delivered: `enforce` raises QualityTooLow, an EngineError that
is not retryable, so the imaging activity fails the task as "EngineRejected" and the workflow
refunds it (core/contracts/generation.py NON_RETRYABLE_ERRORS). The scores are logged (one
`engine quality` line per output) and kept for `recording()`, which `ops/eval/` can use to
print them.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from core.engine import EngineError, collecting
from core.photos.tone_match import MAX_TONE_GAP, too_far
from engine import matting
from engine.arrays import BoolMask, Float32, Image8, Mask
from engine.refusals import REASONS, REFUND
from engine.scores import Scored

log = logging.getLogger("engine.quality")

# A colour difference (CIE ΔE76) a customer sees side by side: about twice the just-noticeable
# difference (~2.3), so JPEG noise and rounding never count as change.
CHANGE_DE = 5.0
# Person swap: at least this share of the person's pixels must change visibly. A face swap on a
# full-length shot changes ~3% (the face is small); a skin recolour of neck and hands alone, ~2-4%.
# Below 2% the customer gets their own photo back (measured: a cropped face and a model of the
# same skin tone changes 0.0%).
MIN_CHANGED_SHARE = 0.02
# Without a face swapped (the face cropped by the frame), the skin tone carries the whole identity
# change: its mean shift over the visible skin must be clearly visible, not a faint tint.
MIN_SKIN_SHIFT = 6.0
# Largest change inside the person, in 8-bit levels (max over R, G, B), reached by the top 0.1%
# of its pixels. A face swap moves features: 55-131 on every people/people-wild fixture with each
# catalog model. A skin recolour alone (face cut by the frame) toward a similar tone reaches
# 12-31 and the photo looks unchanged; the two near-unchanged swaps that were charged reached 24
# and 16. Below this the output is refused.
MIN_PEAK_CHANGE = 32.0
PEAK_SHARE = 0.001
# Skin consistency: ΔE76 between the median face skin and the median neck/arm skin, after the
# swap minus before. Good swaps on the people and people-wild fixtures with every catalog model:
# -7.1..+5.3 (lighting differs between face and arms in the photo itself, hence the difference
# to the photo's own, not an absolute gap). A face recoloured to a model's tone over arms that
# kept the photo's (the engine's skin mask missed them): up to +17 for a clearly different tone.
MAX_SKIN_MISMATCH = 10.0
# How far the photo's face may be turned (0 facing the camera, 1 in profile; see
# swap_person.face_turn): on the fixtures a frontal face measures under 0.2, a three-quarter
# view 0.4-0.5 and still swaps; 09597_00 at 0.86 came out as a band of two faces.
MAX_FACE_TURN = 0.65
# How far apart the photo's and the model's skin tones may be: core/photos/tone_match.py, the rule
# the checks before any charge apply too (MAX_TONE_GAP, too_far).
# A skin tone is a median over at least MIN_TONE_PIXELS pixels (a neck on a full-length shot
# has ~2000), taken from at most TONE_SAMPLES of them, evenly spread (a close-up face has 100k).
MIN_TONE_PIXELS = 400
TONE_SAMPLES = 5000
# Matte: a good cut-out decides almost every pixel; hair leaves 1-10% undecided on the studio
# fixtures, motion blur and groups up to 22% on people-wild. Above 35% the matte is guesswork
# and the composite would show it.
MAX_UNCERTAIN_SHARE = 0.35
# Residual backdrop: a white or backdrop-coloured garment legitimately matches the backdrop at
# its edge, so only a band that is mostly backdrop fails (the matte kept a strip of backdrop).
MAX_RESIDUAL_BACKDROP = 0.6
EDGE_BAND = 3  # pixels inside the matte's edge that make up its "edge band" (full size)
SCORE_SIDE = 512  # the residual backdrop is measured at this long side
# Garment fit: a top covers the chest, a bottom the hips and thighs; a garment placed in the
# right region covers most of it (a crop top still covers the chest band fully). Less than half
# means the fit went wrong (wrong landmarks, a garment shape misread).
MIN_GARMENT_FIT = 0.5
# ... and most of the placed garment lies on the body, not in the air beside it.
MIN_GARMENT_ON_BODY = 0.7
# Holes through the placed garment where the body is (a torn armhole, a gap between a sleeve and
# the body, a matte hole where the cloth matched the product backdrop), as a share of the
# garment's filled outline on the body. The 84 garment x catalog-model fixture pairs measure
# 0-0.007, except one striped long-sleeve top on two models (0.013, 0.027) whose sides show
# the arm through a torn seam, visible by eye: those are refused.
MAX_GARMENT_HOLES = 0.01
# The model's own clothing still showing: the share of the torso (shoulders to hips) that is
# neither the new garment nor skin, hands or hair, and kept the model photo's colour. The fixture
# pairs measure 0-0.006; with the own top left on (its search disabled) a camisole leaves
# 0.18-0.36 of the torso showing the old top, a fuller top 0.01-0.08.
MAX_OLD_CLOTHING = 0.05
# Gaps left between a garment's body and its sleeves (up to SEAM_CHECK shoulder widths wide,
# after the engine closed the narrow ones), over the garment's area: slits at the shoulder
# that show the model's skin or old top. The 14 garments x 6 models measure 0-3.8 per mille
# once closed, except 00151 (torn seams, 3-18.5) and 00470 on model-5 (a 9.3 gap at the hip).
MAX_SEAM_GAPS = 0.005
SEAM_CHECK = 0.16
# Skin painted where the model's own top was, inside the neckline and over the shoulders (see
# swap_garment.painted_skin), as a share of that region. A crew or V neck on a model whose own
# top reached higher shows a little: 0-0.133 for the tops that fit (00055, 00126, 00470, 02305,
# 03244, 049805 on all 6 catalog models, 048554 on five). A camisole, a boat neck or a top
# placed too low on a broad model leaves a flat bib of made-up skin: 02015 0.33-0.62, 049940
# 0.22-0.33 on four models, 03032 and 049920 0.17-0.32 on four, 048554 on model-6 0.18.
MAX_PAINTED_SKIN = 0.15
# The model's arms seen between the garment's body and its own cloth further out (a sleeve that
# hangs beside the arm, not around it; see swap_garment.arm_through), as a share of the arms.
# Sleeves that follow the arms and sleeveless tops: 0-0.048; tiered ruffle sleeves placed as one
# flat shape (049920) 0.78-0.84 on every model, a tee's sleeves cut off the arms (03032)
# 0.16-0.21, a seam torn open at the hip 0.077.
MAX_ARM_THROUGH = 0.06


class QualityTooLow(EngineError):
    """The output failed the engine's self-check: it is not delivered and the task is refunded."""


@dataclass(frozen=True)
class QualityReport(Scored):
    """One output's self-check. None means the score does not apply to this operation."""

    operation: str  # "identity_swap", "dress_model" or "replace_background"
    matte_uncertain: float | None = None
    residual_backdrop: float | None = None
    changed_share: float | None = None
    skin_shift: float | None = None
    peak_change: float | None = None
    skin_mismatch: float | None = None
    face_swapped: bool | None = None
    face_turn: float | None = None
    tone_gap: float | None = None
    garment_kind: str | None = None
    garment_fit: float | None = None
    garment_on_body: float | None = None
    garment_holes: float | None = None
    seam_gaps: float | None = None
    old_clothing: float | None = None
    painted_skin: float | None = None
    arm_through: float | None = None
    failures: tuple[str, ...] = field(default_factory=tuple)

    def summary(self) -> str:
        """One line for a contact sheet or a table: the scores that apply, then the verdict."""
        parts = [
            f"{key}={value}"
            for key, value in self.as_dict().items()
            if value is not None and key not in ("operation", "failures")
        ]
        verdict = "ok" if self.passed else "FAILED " + ",".join(self.failures)
        return f"{self.operation}: {' '.join(parts)} -> {verdict}"


_recorded: ContextVar[list[QualityReport] | None] = ContextVar("quality_reports", default=None)


def recording() -> AbstractContextManager[list[QualityReport]]:
    """Collect the reports of every output scored inside the block (this thread/context).

    For ops/eval/:  with quality.recording() as reports: engine.body_swap(...)
    then reports[-1].summary(). A report is recorded before a failing check raises, so a refused
    output's scores are there too. The remote engine scores on its own side: nothing is recorded.
    """
    return collecting(_recorded)


def _lab(rgb: Image8) -> Float32:
    """CIE Lab in its own units (L 0-100, a and b around 0) from 8-bit RGB."""
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def colour_shift(before: Image8, after: Image8, where: BoolMask) -> Float32:
    """ΔE76 between two RGB images at the pixels of boolean mask `where` (1-D float32)."""
    ys, xs = np.nonzero(where)
    if len(ys) == 0:
        return np.zeros(0, np.float32)
    a = _lab(before[ys, xs].reshape(-1, 1, 3))
    b = _lab(after[ys, xs].reshape(-1, 1, 3))
    return np.asarray(np.linalg.norm(a - b, axis=2).ravel(), np.float32)


def change_measure(
    before: Image8, after: Image8, subject: BoolMask, skin: BoolMask
) -> tuple[float, float]:
    """(share of the subject's pixels changed by more than CHANGE_DE, mean ΔE over the skin).

    Only the box around the pixels that differ at all is converted (a swap changes the face and
    the skin, a small part of the frame), so this stays cheap."""
    total = int(np.count_nonzero(subject))
    skin_count = int(np.count_nonzero(skin))
    if total == 0:
        return 0.0, 0.0
    differs = cv2.transform(cv2.absdiff(before, after), np.ones((1, 3), np.float32)) > 0
    x, y, w, h = cv2.boundingRect((differs & (subject | skin)).astype(np.uint8))
    if w == 0 or h == 0:
        return 0.0, 0.0
    box = (slice(y, y + h), slice(x, x + w))
    # On 8-bit Lab (a and b in their own units, L scaled by 255/100): one float pass only.
    delta = cv2.absdiff(
        cv2.cvtColor(np.ascontiguousarray(before[box]), cv2.COLOR_RGB2LAB),
        cv2.cvtColor(np.ascontiguousarray(after[box]), cv2.COLOR_RGB2LAB),
    ).astype(np.float32)
    weights = np.array([[(100.0 / 255.0) ** 2, 1.0, 1.0]], np.float32)
    shift = cv2.sqrt(cv2.transform(cv2.multiply(delta, delta), weights))
    changed = int(np.count_nonzero((shift > CHANGE_DE) & subject[box]))
    skin_shift = float(shift[skin[box]].sum()) / skin_count if skin_count else 0.0
    return changed / total, skin_shift


def peak_change(before: Image8, after: Image8, subject: BoolMask) -> float:
    """The largest change inside boolean mask `subject`, in 8-bit levels (the largest of R, G and
    B per pixel): the level that the top PEAK_SHARE of the subject's pixels reach, so a few
    stray pixels do not count. From a histogram over the box of the pixels that differ (the
    rest are 0), so this stays cheap."""
    total = int(np.count_nonzero(subject))
    if total == 0:
        return 0.0
    diff = cv2.absdiff(before, after).max(axis=2)
    x, y, w, h = cv2.boundingRect(((diff > 0) & subject).astype(np.uint8))
    counts = np.zeros(256, np.int64)
    if w and h:
        box = (slice(y, y + h), slice(x, x + w))
        counts = np.bincount(diff[box][subject[box]], minlength=256).astype(np.int64)
        counts[0] += total - int(counts.sum())
    else:
        counts[0] = total
    # The highest level at or above which at least PEAK_SHARE of the pixels lie.
    at_or_above = np.cumsum(counts[::-1])[::-1]
    levels = np.nonzero(at_or_above >= max(1, PEAK_SHARE * total))[0]
    return float(levels[-1])


def median_lab(rgb: Image8, where: BoolMask) -> Float32:
    """The median CIE Lab colour of the pixels of boolean mask `where` (of at most
    TONE_SAMPLES of them, evenly spread: a median needs no more)."""
    pixels = rgb[where]
    step = max(1, len(pixels) // TONE_SAMPLES)
    return np.asarray(np.median(_lab(pixels[::step].reshape(-1, 1, 3)).reshape(-1, 3), axis=0))



def skin_mismatch(
    before: Image8, after: Image8, face: BoolMask, body: BoolMask
) -> float | None:
    """How much further apart (ΔE76) the face's and the body's median skin tones are in `after`
    than in `before`; None when either region is too small to measure."""
    if int(np.count_nonzero(face)) < MIN_TONE_PIXELS or int(np.count_nonzero(body)) < (
        MIN_TONE_PIXELS
    ):
        return None

    def gap(rgb: Image8) -> float:
        return float(np.linalg.norm(median_lab(rgb, face) - median_lab(rgb, body)))

    return gap(after) - gap(before)



def holes_in(cover: BoolMask, where: BoolMask) -> float:
    """The share of `cover`'s filled outline, inside boolean `where`, that is a hole in it."""
    solid = cover.astype(np.uint8)
    contours, _ = cv2.findContours(solid, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(solid)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    inside = (filled > 0) & where
    total = int(np.count_nonzero(inside))
    return 0.0 if total == 0 else int(np.count_nonzero(inside & ~cover)) / total


def unchanged_share(before: Image8, after: Image8, region: BoolMask) -> float:
    """The share of boolean `region` whose colour did not change visibly (ΔE ≤ CHANGE_DE)."""
    shift = colour_shift(before, after, region)
    return 0.0 if len(shift) == 0 else float(np.count_nonzero(shift <= CHANGE_DE)) / len(shift)


def matte_uncertainty(alpha: Mask) -> float:
    """The share of the subject's matte (alpha > 0.1) that is undecided (alpha below 0.9)."""
    subject = int(np.count_nonzero(alpha > 0.1))
    if subject == 0:
        return 1.0
    undecided = int(np.count_nonzero((alpha > 0.1) & (alpha < 0.9)))
    return undecided / subject


def edge_band(alpha: Mask, width: int = EDGE_BAND) -> BoolMask:
    """The matte's inner edge (bool): opaque pixels within `width` of a transparent one."""
    solid = (alpha > 0.5).astype(np.uint8)
    inner = cv2.erode(solid, np.ones((2 * width + 1, 2 * width + 1), np.uint8))
    return np.asarray((solid > 0) & (inner == 0), np.bool_)


def residual_backdrop(rgb: Image8, alpha: Mask, back: matting.Backdrop) -> float:
    """The share of the matte's inner edge band whose colour is the backdrop's (0 on a scene)."""
    if not back.plain:
        return 0.0
    # At the models' working size: a share of an edge band needs no full-size detail, and the
    # colour distance is the costliest part.
    h, w = alpha.shape
    scale = min(1.0, SCORE_SIDE / max(h, w))
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        rgb = np.asarray(cv2.resize(rgb, size, interpolation=cv2.INTER_AREA), np.uint8)
        alpha = np.asarray(cv2.resize(alpha, size, interpolation=cv2.INTER_AREA), np.float32)
    band = edge_band(alpha, max(1, round(EDGE_BAND * scale)))
    count = int(np.count_nonzero(band))
    if count == 0:
        return 0.0
    distance = matting.colour_distance_matte(rgb, back)
    return int(np.count_nonzero(band & (distance < 0.05))) / count


def coverage_of(region: BoolMask, cover: BoolMask) -> float:
    """The share of boolean `region` that boolean `cover` covers (1.0 for an empty region)."""
    total = int(np.count_nonzero(region))
    return 1.0 if total == 0 else int(np.count_nonzero(region & cover)) / total


# Each score's limit, in the order the reasons are given (the first failure names the refusal):
# (field, limit, True when the score must stay at or under it, False at or over it).
LIMITS: tuple[tuple[str, float, bool], ...] = (
    ("matte_uncertain", MAX_UNCERTAIN_SHARE, True),
    ("residual_backdrop", MAX_RESIDUAL_BACKDROP, True),
    ("changed_share", MIN_CHANGED_SHARE, False),
    ("peak_change", MIN_PEAK_CHANGE, False),
    ("skin_mismatch", MAX_SKIN_MISMATCH, True),
    ("face_turn", MAX_FACE_TURN, True),
    ("tone_gap", MAX_TONE_GAP, True),
    ("skin_shift", MIN_SKIN_SHIFT, False),  # only when no face was swapped, see judge()
    ("garment_fit", MIN_GARMENT_FIT, False),
    ("garment_on_body", MIN_GARMENT_ON_BODY, False),
    ("garment_holes", MAX_GARMENT_HOLES, True),
    ("seam_gaps", MAX_SEAM_GAPS, True),
    ("old_clothing", MAX_OLD_CLOTHING, True),
    ("arm_through", MAX_ARM_THROUGH, True),
    ("painted_skin", MAX_PAINTED_SKIN, True),
)


def judge(report: QualityReport) -> QualityReport:
    """The report with the names of the checks it fails filled in."""
    failures = []
    for name, limit, at_most in LIMITS:
        value = getattr(report, name)
        if value is None or (name == "skin_shift" and report.face_swapped is not False):
            # A swapped face is change enough: the skin shift only counts without one.
            continue
        if name == "tone_gap":
            # The shared rule (core/photos/tone_match.py), not a copy of its comparison.
            if too_far(value):
                failures.append(name)
        elif (value > limit) if at_most else (value < limit):
            failures.append(name)
    return QualityReport(**{**asdict(report), "failures": tuple(failures)})


def cutout_report(
    rgb: Image8, alpha: Mask, back: matting.Backdrop, operation: str
) -> QualityReport:
    """The matte's scores for any cut-out (`rgb` the photo or its cut-out colours)."""
    return QualityReport(
        operation,
        matte_uncertain=matte_uncertainty(alpha),
        residual_backdrop=residual_backdrop(rgb, alpha, back),
    )


def check_cutout(
    rgb: Image8,
    alpha: Mask,
    back: matting.Backdrop,
    operation: str = "replace_background",
) -> QualityReport:
    """Score a cut-out and enforce the matte thresholds (QualityTooLow below them). For the
    background replace: `check_cutout(subject.cutout.rgb, subject.cutout.alpha,
    subject.backdrop)` after `find_subject` (about 2 ms at 768x1024)."""
    return enforce(cutout_report(rgb, alpha, back, operation))


def enforce(report: QualityReport) -> QualityReport:
    """Judge, log and record the report; raise QualityTooLow if any check fails."""
    judged = judge(report)
    reports = _recorded.get()
    if reports is not None:
        reports.append(judged)
    log.info(
        "engine quality",
        extra={"quality": judged.as_dict(), "quality_passed": judged.passed},
    )
    if judged.failures:
        raise QualityTooLow(REASONS[judged.failures[0]] + REFUND)
    return judged


__all__ = [
    "QualityReport",
    "QualityTooLow",
    "change_measure",
    "check_cutout",
    "cutout_report",
    "enforce",
    "holes_in",
    "matte_uncertainty",
    "median_lab",
    "peak_change",
    "recording",
    "residual_backdrop",
    "skin_mismatch",
    "unchanged_share",
]
