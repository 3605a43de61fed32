"""The engine's self-check: every output is scored before it is delivered.

Scores (all 0..1 shares, except the skin shift in CIE ΔE76):
- matte confidence: the share of the subject's matte that is undecided (alpha in 0.1-0.9);
- residual backdrop: the share of the matte's inner edge band that still has the backdrop's
  colour (a halo of backdrop cut out with the subject);
- change: for a person swap, the share of the person's pixels that changed visibly, and the mean
  colour shift over the visible skin;
- garment fit: for a dressed model, the share of the body region the garment should cover that it
  does cover, and the share of the garment that lands on the body.

An output below a threshold is not delivered: `enforce` raises QualityTooLow, an EngineError that
is not retryable, so the imaging activity fails the task as "EngineRejected" and the workflow
refunds it (core/contracts.py NON_RETRYABLE_ERRORS). The scores are logged (one `engine quality`
line per output) and kept for `recording()`, which `ops/eval.py` can use to print them.
"""

from __future__ import annotations

import logging
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from core.engine import EngineError, collecting
from engine import matting

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


class QualityTooLow(EngineError):
    """The output failed the engine's self-check: it is not delivered and the task is refunded."""


@dataclass(frozen=True)
class QualityReport:
    """One output's self-check. None means the score does not apply to this operation."""

    operation: str  # "identity_swap", "dress_model" or "replace_background"
    matte_uncertain: float | None = None
    residual_backdrop: float | None = None
    changed_share: float | None = None
    skin_shift: float | None = None
    face_swapped: bool | None = None
    garment_kind: str | None = None
    garment_fit: float | None = None
    garment_on_body: float | None = None
    failures: tuple[str, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        return not self.failures

    def as_dict(self) -> dict[str, object]:
        values = asdict(self)
        values["failures"] = list(self.failures)
        return {
            key: round(value, 4) if isinstance(value, float) else value
            for key, value in values.items()
        }

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

    For ops/eval.py:  with quality.recording() as reports: engine.body_swap(...)
    then reports[-1].summary(). A report is recorded before a failing check raises, so a refused
    output's scores are there too. The remote engine scores on its own side: nothing is recorded.
    """
    return collecting(_recorded)


def _lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab in its own units (L 0-100, a and b around 0) from 8-bit RGB."""
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0
    lab[..., 1:] -= 128.0
    return lab


def colour_shift(before: np.ndarray, after: np.ndarray, where: np.ndarray) -> np.ndarray:
    """ΔE76 between two RGB images at the pixels of boolean mask `where` (1-D float32)."""
    ys, xs = np.nonzero(where)
    if len(ys) == 0:
        return np.zeros(0, np.float32)
    a = _lab(before[ys, xs].reshape(-1, 1, 3))
    b = _lab(after[ys, xs].reshape(-1, 1, 3))
    return np.asarray(np.linalg.norm(a - b, axis=2).ravel(), np.float32)


def change_measure(
    before: np.ndarray, after: np.ndarray, subject: np.ndarray, skin: np.ndarray
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


def matte_uncertainty(alpha: np.ndarray) -> float:
    """The share of the subject's matte (alpha > 0.1) that is undecided (alpha below 0.9)."""
    subject = int(np.count_nonzero(alpha > 0.1))
    if subject == 0:
        return 1.0
    undecided = int(np.count_nonzero((alpha > 0.1) & (alpha < 0.9)))
    return undecided / subject


def edge_band(alpha: np.ndarray, width: int = EDGE_BAND) -> np.ndarray:
    """The matte's inner edge (bool): opaque pixels within `width` of a transparent one."""
    solid = (alpha > 0.5).astype(np.uint8)
    inner = cv2.erode(solid, np.ones((2 * width + 1, 2 * width + 1), np.uint8))
    return (solid > 0) & (inner == 0)


def residual_backdrop(rgb: np.ndarray, alpha: np.ndarray, back: matting.Backdrop) -> float:
    """The share of the matte's inner edge band whose colour is the backdrop's (0 on a scene)."""
    if not back.plain:
        return 0.0
    # At the models' working size: a share of an edge band needs no full-size detail, and the
    # colour distance is the costliest part.
    h, w = alpha.shape
    scale = min(1.0, SCORE_SIDE / max(h, w))
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        rgb = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    band = edge_band(alpha, max(1, round(EDGE_BAND * scale)))
    count = int(np.count_nonzero(band))
    if count == 0:
        return 0.0
    distance = matting.colour_distance_matte(rgb, back)
    return int(np.count_nonzero(band & (distance < 0.05))) / count


def coverage_of(region: np.ndarray, cover: np.ndarray) -> float:
    """The share of boolean `region` that boolean `cover` covers (1.0 for an empty region)."""
    total = int(np.count_nonzero(region))
    return 1.0 if total == 0 else int(np.count_nonzero(region & cover)) / total


def judge(report: QualityReport) -> QualityReport:
    """The report with the names of the checks it fails filled in."""
    failures = []
    if report.matte_uncertain is not None and report.matte_uncertain > MAX_UNCERTAIN_SHARE:
        failures.append("matte_uncertain")
    if report.residual_backdrop is not None and report.residual_backdrop > MAX_RESIDUAL_BACKDROP:
        failures.append("residual_backdrop")
    if report.changed_share is not None and report.changed_share < MIN_CHANGED_SHARE:
        failures.append("changed_share")
    if (
        report.face_swapped is False
        and report.skin_shift is not None
        and report.skin_shift < MIN_SKIN_SHIFT
    ):
        failures.append("skin_shift")
    if report.garment_fit is not None and report.garment_fit < MIN_GARMENT_FIT:
        failures.append("garment_fit")
    if report.garment_on_body is not None and report.garment_on_body < MIN_GARMENT_ON_BODY:
        failures.append("garment_on_body")
    return QualityReport(**{**asdict(report), "failures": tuple(failures)})


def cutout_report(
    rgb: np.ndarray, alpha: np.ndarray, back: matting.Backdrop, operation: str
) -> QualityReport:
    """The matte's scores for any cut-out (`rgb` the photo or its cut-out colours)."""
    return QualityReport(
        operation,
        matte_uncertain=matte_uncertainty(alpha),
        residual_backdrop=residual_backdrop(rgb, alpha, back),
    )


def check_cutout(
    rgb: np.ndarray,
    alpha: np.ndarray,
    back: matting.Backdrop,
    operation: str = "replace_background",
) -> QualityReport:
    """Score a cut-out and enforce the matte thresholds (QualityTooLow below them). For the
    background replace: `check_cutout(subject.cutout.rgb, subject.cutout.alpha,
    subject.backdrop)` after `find_subject` (about 2 ms at 768x1024)."""
    return enforce(cutout_report(rgb, alpha, back, operation))


REFUND = "; your credits were returned."
REASONS = {
    "changed_share": "We could not change the person in this photo enough to be worth charging "
    "for",
    "skin_shift": "We could not change the person in this photo enough to be worth charging "
    "for (the chosen model's skin tone is too close to theirs, and no face was visible to "
    "swap)",
    "matte_uncertain": "We could not separate the subject from the background cleanly enough",
    "residual_backdrop": "We could not separate the subject from the background cleanly enough "
    "(part of the backdrop stayed around the edges)",
    "garment_fit": "We could not fit this garment onto the model well enough",
    "garment_on_body": "We could not fit this garment onto the model well enough",
}


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
    "matte_uncertainty",
    "recording",
    "residual_backdrop",
]
