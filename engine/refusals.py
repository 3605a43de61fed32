"""What the customer reads when the engine's self-check (engine/quality.py) refuses an output:
one sentence per failed check, named as QualityReport names it, and that nothing was charged.
"""

from __future__ import annotations

from core.photos.tone_match import TONE_TOO_FAR

REFUND = "; your credits were returned."
REASONS = {
    "changed_share": "We could not change the person in this photo enough to be worth charging "
    "for",
    "skin_shift": "We could not change the person in this photo enough to be worth charging "
    "for (the chosen model's skin tone is too close to theirs, and no face was visible to "
    "swap)",
    "peak_change": "We could not change the person in this photo enough to be worth charging "
    "for (the result would look like the original)",
    "skin_mismatch": "We could not give the person one even skin tone (the face and the arms or "
    "neck would not match)",
    "tone_gap": TONE_TOO_FAR,
    "face_turn": "We could not swap this face: it is turned too far to the side (a photo "
    "where the face looks toward the camera works best)",
    "garment_holes": "We could not fit this garment onto the model without holes showing",
    "seam_gaps": "We could not fit this garment onto the model without gaps at its seams",
    "old_clothing": "We could not cover the model's own clothing with this garment",
    "arm_through": "We could not fit this garment's sleeves around the model's arms (the arms "
    "would show between the garment and its sleeves)",
    "painted_skin": "We could not fit this garment's neckline onto the model (a large patch of "
    "made-up skin would show where the model's own top was)",
    "matte_uncertain": "We could not separate the subject from the background cleanly enough",
    "residual_backdrop": "We could not separate the subject from the background cleanly enough "
    "(part of the backdrop stayed around the edges)",
    "garment_fit": "We could not fit this garment onto the model well enough",
    "garment_on_body": "We could not fit this garment onto the model well enough",
}
