"""What an uploaded photo is, and what it can become: the analysis every upload gets.

The imaging workers compute it (engine/photo_analysis.py, where the models live); the API and
the web show it beside the photo and refuse, before any charge, what it rules out. Plain data
only, so it crosses Temporal and the API as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.photos.tone_match import stored_tone, tone_json

# What the photo shows.
PERSON, GARMENT, NEITHER = "person", "garment", "neither"
# Which way the person faces (None for a garment or nothing).
FRONT, SIDE, BACK = "front", "side", "back"
# How much of the main person's face is in the photo.
FACE_FULL, FACE_CROPPED, FACE_NONE = "full", "cropped", "none"
# The services a photo is checked for (the spec's wire names).
BODY_SWAP, BURST_REPLACE = "bodySwap", "burstreplace"

NOTHING_TO_CUT_OUT = (
    "We could not find a person or a garment in this photo. Use a photo of a person, or of "
    "a garment alone on a plain background."
)
SEVERAL_PEOPLE = (
    "This photo shows {people} people; a model swap needs a photo of one person. Crop it to "
    "one person, or use another photo."
)
SEEN_FROM_BEHIND = (
    "The person is seen from behind, so there is no face to swap. Use a photo of the person "
    "facing the camera."
)
SEEN_FROM_SIDE = (
    "The person is turned to the side; a model swap needs the body facing the camera with "
    "both shoulders in view."
)
NOT_FACING = (
    "The person could not be analysed for a model swap: the body must face the camera with "
    "both shoulders and the hips in view."
)
FACE_CUT_OFF = (
    "The face is cut off by the edge of the photo, so nothing of it can be swapped. Use a "
    "photo that shows the whole face."
)
NO_FACE = "No face can be seen in this photo, so there is nothing to swap."
UNKNOWN_GARMENT = (
    "We could not tell what kind of garment this is (a top, trousers or a skirt, a dress or a "
    "jacket). Use a photo of one garment alone, laid flat or on a ghost mannequin."
)


@dataclass(frozen=True)
class Capability:
    """Whether the photo can be used for one service, and why not when it cannot."""

    ok: bool
    reason: str | None = None


@dataclass(frozen=True)
class PhotoAnalysis:
    kind: str  # PERSON, GARMENT or NEITHER
    people: int  # how many people it shows
    view: str | None  # FRONT, SIDE or BACK for a person
    face: str  # FACE_FULL, FACE_CROPPED or FACE_NONE
    garment: str | None  # top, bottom, dress or outerwear for a garment; None otherwise
    can: dict[str, Capability] = field(default_factory=dict)  # by service wire name
    # The person's skin tone (CIE Lab of the cheeks, as the engine measures it) when the face
    # was found: what the model swap's tone rule (core/photos/tone_match.py) needs to say, before
    # any charge, which digital models this photo can be swapped to.
    tone: tuple[float, float, float] | None = None

    def refusal(self, service: str) -> str | None:
        """Why this photo cannot be used for `service`, or None when it can."""
        capability = self.can.get(service)
        return capability.reason if capability is not None and not capability.ok else None


def analysis_to_json(analysis: PhotoAnalysis) -> dict[str, object]:
    """The analysis as JSON-ready data (stored on the upload, carried by Temporal)."""
    return {
        "kind": analysis.kind,
        "people": analysis.people,
        "view": analysis.view,
        "face": analysis.face,
        "garment": analysis.garment,
        "can": {name: {"ok": c.ok, "reason": c.reason} for name, c in analysis.can.items()},
        "tone": None if analysis.tone is None else tone_json(analysis.tone),
    }


def analysis_from_json(data: dict[str, Any]) -> PhotoAnalysis:
    can = data.get("can") or {}
    return PhotoAnalysis(
        kind=str(data["kind"]),
        people=int(data["people"]),
        view=data.get("view"),
        face=str(data.get("face") or FACE_NONE),
        garment=data.get("garment"),
        can={str(name): Capability(bool(c.get("ok")), c.get("reason")) for name, c in can.items()},
        tone=stored_tone(data.get("tone")),
    )
