"""Identity swap on full-face photos (issue 13, item 4): the model's face, jaw line to hairline,
takes the photo's head shape, with no seam at its edge, a visibly new face, and the hair around
it untouched."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from core.engine import no_progress
from engine import quality
from engine.digital_model import FACE_OVAL, Person, analyse_person, digital_model, skin_mask
from engine.swap_person import face_patch, identity_swap, recolour_skin
from tests.support.gate import without_checks
from tests.support.paths import fixture_array

# Full-face fixture photos with bare skin around the face (neck, shoulders; the other people
# fixtures have the face cut by the frame) and catalog models: fair ones with a fringe and with
# pink hair, a dark-skinned one.
PHOTOS = ["01008_00.jpg", "01861_00.jpg", "05997_00.jpg", "14627_00.jpg"]
MODELS = ["model-1.jpg", "model-2.jpg", "model-3.jpg", "model-4.jpg"]
RING = 4  # pixels each side of the blend's edge
SECTORS = 16  # the edge is compared piecewise: a seam on one side must not average away
# Bounds (CIE ΔE76), measured on these fixtures. The seam (see `seam`): this blend measures
# 2.7-7.8 per swap (mean over the sectors), 4.7 over all; the oval paste it replaced measured
# 6.5-24 per swap and 14 over all (a light or dark band across the forehead, a step at the jaw).
MAX_SEAM = 9.0
MAX_SEAM_OVERALL = 6.0
# The face itself changed clearly: 8.8-19 mean over the fully blended face (the oval paste
# measured 15-22 there, but over a smaller region inside the face).
MIN_FACE_CHANGE = 6.0
# The fully blended face's share of the mesh's face below the brows (above them the photo keeps
# its own forehead).
MIN_CORE = 0.4


def _face_below_brows(photo: Person) -> np.ndarray:
    """The face mesh's outline filled, from the brows' middle down."""
    assert photo.face is not None
    oval = np.zeros(photo.rgb.shape[:2], np.uint8)
    cv2.fillPoly(oval, [np.round(photo.face[FACE_OVAL]).astype(np.int32)], (1,))
    oval[: int(photo.face[[105, 334], 1].mean())] = 0
    return oval > 0


@cache
def _person(name: str) -> Person:
    return analyse_person(fixture_array("people", name))


def _lab(rgb: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    return (lab - np.array([0.0, 128.0, 128.0], np.float32)) * np.array(
        [100.0 / 255.0, 1.0, 1.0], np.float32
    )


def seam(
    photo: Person, reference: np.ndarray, out: np.ndarray, alpha: np.ndarray
) -> tuple[float, float]:
    """(mean, worst) over sectors around the face of the colour jump across the blend's edge.

    Inner ring: fully blended pixels (alpha > 0.9) within RING of the feather; outer ring:
    untouched-by-the-blend pixels (alpha < 0.02) within RING of it that are skin on the photo
    (at the hairline the outside is hair, a jump that belongs there). Per sector, the jump on
    the output (inside mean minus outside mean, Lab) less the same jump on `reference`, the
    photo with only its skin recoloured (its own shading, e.g. under the jaw, belongs there),
    as a ΔE76 length: what the face blend adds at its edge."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * RING + 1, 2 * RING + 1))
    full = (alpha > 0.9).astype(np.uint8)
    touched = (alpha >= 0.02).astype(np.uint8)
    inner = (full > 0) & (cv2.erode(full, kernel) == 0)
    outer = (cv2.dilate(touched, kernel) > 0) & (touched == 0) & (photo.skin > 0.5)
    assert photo.face is not None
    centre = photo.face[168]
    ys, xs = np.mgrid[0 : alpha.shape[0], 0 : alpha.shape[1]]
    sector = (
        (np.arctan2(ys - centre[1], xs - centre[0]) + np.pi) / (2 * np.pi) * SECTORS
    ).astype(int) % SECTORS
    before, after = _lab(reference), _lab(out)
    jumps = []
    for s in range(SECTORS):
        a, b = inner & (sector == s), outer & (sector == s)
        if a.sum() < 20 or b.sum() < 20:
            continue
        jump_out = after[a].mean(0) - after[b].mean(0)
        jump_before = before[a].mean(0) - before[b].mean(0)
        jumps.append(float(np.linalg.norm(jump_out - jump_before)))
    assert len(jumps) >= 3, "too little skin around the face to measure a seam"
    return float(np.mean(jumps)), float(np.max(jumps))


def _swap(photo_name: str, model_name: str) -> tuple[Person, np.ndarray, np.ndarray]:
    """The photo's person, the swap's output and the face blend's weight (full size)."""
    photo = _person(photo_name)
    model = digital_model(fixture_array("catalog-models", model_name))
    patch = face_patch(photo, model)
    assert patch is not None, "a full face must be swapped"
    alpha = np.zeros(photo.rgb.shape[:2], np.float32)
    x0, y0, x1, y1 = patch.box
    alpha[y0:y1, x0:x1] = patch.alpha
    with quality.recording() as reports:
        out = identity_swap(photo, model, no_progress)
    assert reports[-1].passed and reports[-1].face_swapped is True, reports[-1].summary()
    return photo, out, alpha


def test_full_face_swaps_have_no_seam_and_a_new_face(monkeypatch: pytest.MonkeyPatch) -> None:
    # (A tone this far from the photo's is refused before any work, tone_gap; what the
    # recolour does with it is looked at here all the same.)
    without_checks(monkeypatch, "tone_gap")
    seams = []
    for photo_name in PHOTOS:
        for model_name in MODELS:
            photo, out, alpha = _swap(photo_name, model_name)
            model = digital_model(fixture_array("catalog-models", model_name))
            mean, _ = seam(photo, recolour_skin(photo, model), out, alpha)
            assert mean < MAX_SEAM, (photo_name, model_name, mean)
            seams.append(mean)
            core = alpha > 0.9
            # The model's face, brows down, is taken whole but for the model's strands of hair
            # and a margin round them: 43-69% of the mesh's face below the brows.
            below = _face_below_brows(photo)
            assert (core & below).sum() > MIN_CORE * below.sum(), (photo_name, model_name)
            change = quality.colour_shift(photo.rgb, out, core).mean()
            assert change > MIN_FACE_CHANGE, (photo_name, model_name, change)
    assert float(np.mean(seams)) < MAX_SEAM_OVERALL, seams


@pytest.mark.parametrize("photo_name", PHOTOS)
def test_hair_around_the_face_stays_untouched(photo_name: str) -> None:
    """Above and beside the face (the head's box), everything the blend does not cover and that
    is not skin keeps its value: hair, ears' earrings, background."""
    for model_name in MODELS[:2]:
        photo, out, alpha = _swap(photo_name, model_name)
        assert photo.face is not None
        x0, y0 = photo.face.min(0).astype(int)
        x1, y1 = photo.face.max(0).astype(int)
        pad = (x1 - x0) // 2
        head = np.zeros(alpha.shape, bool)
        head[max(0, y0 - pad) : y1, max(0, x0 - pad) : x1 + pad] = True
        blended = cv2.dilate((alpha > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        # Not skin, nor next to it (the skin recolour's mask is softened by a pixel or two).
        near_skin = cv2.dilate((photo.skin > 0.001).astype(np.uint8), np.ones((7, 7), np.uint8))
        hair = head & ~blended & (near_skin == 0)
        assert hair.sum() > 3_000, model_name
        diff = np.abs(out.astype(int) - photo.rgb.astype(int)).max(axis=2)[hair]
        assert diff.mean() <= 1.0 and np.percentile(diff, 99) <= 2, (model_name, diff.mean())


def test_the_blend_reaches_the_jaw_and_the_hairline() -> None:
    """The face region is the head's, not an oval inside it: it covers the face mesh's whole
    outline (jaw included), and where the forehead goes on above the mesh it goes up too, but
    not into the hair. (The oval paste covered none of the forehead above the mesh.)"""
    skin_above = covered_above = 0
    for photo_name in PHOTOS:
        photo = _person(photo_name)
        model = digital_model(fixture_array("catalog-models", MODELS[0]))
        patch = face_patch(photo, model)
        assert patch is not None and photo.face is not None and photo.tone is not None
        x0, y0, x1, y1 = patch.box
        region = np.zeros(photo.rgb.shape[:2], np.uint8)
        region[y0:y1, x0:x1] = patch.mask > 0
        oval = np.zeros_like(region)
        cv2.fillPoly(oval, [np.round(photo.face[FACE_OVAL]).astype(np.int32)], (1,))
        oval &= (photo.subject.cutout.alpha > 0.5).astype(np.uint8)
        # The mesh's face, bar a fringe or a strand over the forehead, is all covered.
        assert (region[oval > 0] > 0).mean() > 0.9, photo_name
        # A strip above the mesh's top point, judged by the photo's own skin test (`photo.skin`
        # stops at the mesh).
        top = photo.face[10]
        rows = slice(max(0, int(top[1]) - 40), int(top[1]) - 4)
        columns = slice(int(top[0]) - 3, int(top[0]) + 4)
        rgb = np.ascontiguousarray(photo.rgb[rows, columns])
        likeness = skin_mask(rgb, photo.subject.cutout.alpha[rows, columns], photo.tone)
        skin, hair = likeness > 0.9, likeness < 0.01
        covered = region[rows, columns] > 0
        skin_above += int(skin.sum())
        covered_above += int((covered & skin).sum())
        if hair.sum() > 20:
            assert (covered & hair).sum() <= 0.2 * hair.sum(), (photo_name, hair.sum())
    # The forehead's hairline is found from the skin's colour: a highlight or a strand stops it
    # early on some photos, so this is over all of them.
    assert skin_above > 200
    assert covered_above >= 0.3 * skin_above, (covered_above, skin_above)
