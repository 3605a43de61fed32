"""Model swap, case (b): the photo is a garment alone (flat lay or ghost mannequin).

The digital model is dressed in it:
0. the garment is classified from its cut-out (top, bottom, dress, outerwear); a bottom is put on
   the waist and hips (never on the torso), anything unrecognised is refused with a reason;
1. key points from the garment's matte: shoulders, armpits, sleeves, hem;
2. the torso part is placed on the model's torso (shoulder line from the pose landmarks), the
   sleeves are cut off at the armpits and turned about the shoulders to lie along the model's
   arms (a flat lay spreads them sideways; the catalog models' arms hang down);
3. the garment is shaded with the model photo's own lighting (folds and fall-off of the top the
   model wears, which is light-coloured in the catalog);
4. the model's arms stay in front of the torso part, hands and hair in front of everything; the
   model's own top is turned to skin where the new garment does not reach, and around a dress
   or a new bottom so are the model's own bottoms below its hem (legs) or, beside it, they
   become backdrop (the new garment is the body's outline there);
5. the result is scored (engine/quality.py): a garment that does not sit where it should fails
   with a reason and the task is refunded.

The steps are modules of this package: classify (0), shape (1), fit and place (2), body (the
model's arms, hair and light: 3 and 4), own_clothes (4), checks (5); dress_model runs them.
"""

from __future__ import annotations

import cv2
import numpy as np

from core.engine import NoGarmentFound, ProgressFn
from engine import matting, quality
from engine.analysis import Subject
from engine.arrays import Image8, Mask
from engine.digital_model import FACE_OVAL, Person
from engine.swap_garment.body import arm_masks, hair_mask, shading, shoulder_frame
from engine.swap_garment.checks import WornOn, arm_through, dressing_report, painted_skin
from engine.swap_garment.classify import (
    BOTTOM,
    DRESS,
    OUTERWEAR,
    TOP,
    UNKNOWN,
    GarmentClass,
    classify_garment,
)
from engine.swap_garment.fit import torso_fit
from engine.swap_garment.own_clothes import (
    LEG_DETAIL,
    bare_skin,
    own_bottoms,
    own_top,
    uncovered_bottoms,
)
from engine.swap_garment.place import SEAM_CLOSE, Dressing, place_garment, seam_gap_share, seam_gaps
from engine.swap_garment.shape import garment_shape, inside_back, neck_opening

__all__ = [
    "BOTTOM",
    "DRESS",
    "OUTERWEAR",
    "SEAM_CLOSE",
    "TOP",
    "UNKNOWN",
    "Dressing",
    "GarmentClass",
    "WornOn",
    "arm_masks",
    "arm_through",
    "classify_garment",
    "dress_model",
    "garment_shape",
    "hair_mask",
    "inside_back",
    "neck_opening",
    "own_bottoms",
    "own_top",
    "painted_skin",
    "place_garment",
    "seam_gap_share",
    "seam_gaps",
    "shoulder_frame",
    "torso_fit",
]


def dress_model(
    garment: Subject, model: Person, progress: ProgressFn
) -> tuple[Image8, Mask]:
    """Case (b): the model wearing the garment, and the person's new matte (garment included)."""
    alpha = garment.cutout.alpha
    if float((alpha > 0.5).mean()) < 0.02:
        raise NoGarmentFound("No garment could be separated from the background of the photo.")
    progress(0.4, "fitting the garment")
    dressing = place_garment(garment, model)
    h, w = model.rgb.shape[:2]
    progress(0.55, "shading")
    coverage = dressing.coverage
    light = shading(model, coverage)
    arms, hands = arm_masks(model)
    arm_skin = (arms >= 0.5) & (hands < 0.5)
    hair = hair_mask(model)
    found_hands, found_hair = hands >= 0.5, hair >= 0.5  # before the face joins the hair
    if model.face is not None:
        # The face is always in front (a halter's neck tie must not cross it).
        head = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(head, cv2.convexHull(model.face[FACE_OVAL].astype(np.int32)), 1)
        hair = np.maximum(hair, head.astype(np.float32))
    def soft(m: Mask) -> Mask:  # a one-line helper
        return np.asarray(cv2.GaussianBlur(m, (0, 0), 1.5), np.float32)

    arms, hands, hair = soft(arms), soft(hands), soft(hair)
    sleeveless = dressing.kind.kind == BOTTOM or len(dressing.layers) == 1
    person = model.subject.cutout.alpha
    bottoms = own_bottoms(model)
    top = own_top(model) & ~bottoms
    bare = np.zeros((h, w), bool)
    if dressing.kind.kind != BOTTOM:
        # The model's own top is taken off first: wherever the new garment does not reach
        # (straps above a strapless top, a tank below a crop top), skin shows, not old cloth.
        bare = top & (hands < 0.5) & (hair < 0.5)
    gone = np.zeros((h, w), bool)
    legs = np.zeros((h, w), bool)
    if dressing.kind.kind in (DRESS, BOTTOM):
        # So are the own bottoms around a dress or a new bottom (a skirt beside a dress, jeans
        # below a short hem). Tops and outerwear are worn over them: those stay.
        legs, gone = uncovered_bottoms(model, bottoms, coverage)
        legs &= hands < 0.5
        gone &= (hands < 0.5) & (arms < 0.5)
    out = bare_skin(model, bare)
    if legs.any():
        # Legs under jeans: only the broad light (the body's roundness) carries over.
        out = bare_skin(model, legs, out, detail=LEG_DETAIL)
        bare |= legs
    if gone.any():
        # Backdrop where the old bottoms stuck out (grown by a pixel or two: their soft rim
        # goes too, but not over skin or the new garment), and out of the person's matte.
        rim = cv2.dilate(gone.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        rim &= (model.skin < 0.5) & (coverage < 0.5) & (hands < 0.5) & (arms < 0.5) & ~bare
        region = (gone | rim).astype(np.float32)
        weight = np.maximum(cv2.GaussianBlur(region, (0, 0), 1.0) * region, gone)
        backdrop = matting.estimate_background(model.rgb, person)
        out += (backdrop - out) * weight[..., None]
        person = person * (1.0 - weight)
    for i, (rgb, layer_alpha) in enumerate(dressing.layers):
        visible = layer_alpha * (1.0 - hands) * (1.0 - hair)
        if i == 0 and sleeveless:
            # Bare arms hang in front of a sleeveless garment's body and beside a bottom. (With
            # sleeves the arms are inside them; the sleeve layers are drawn over the body.)
            visible *= 1.0 - arms
        lit = rgb * light[..., None]
        out += (lit - out) * visible[..., None]
    result = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    progress(0.75, "checking the result")
    # Arms are drawn in front of a sleeveless garment's body; with sleeves they show where no
    # cloth is.
    shown = arm_skin if sleeveless else arm_skin & (coverage <= 0.5)
    worn = WornOn(found_hands, found_hair, top, bottoms, bare, arm_skin, shown)
    quality.enforce(dressing_report(garment, model, dressing, result, worn))
    person = np.maximum(person, coverage)
    return result, person.astype(np.float32)
