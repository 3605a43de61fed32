"""The outline of a head for the face swap (engine/swap_person.py): the face mesh's jaw, and
above it the hairline, found along rays from between the eyes where the forehead's skin stops.
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.arrays import Float32, Floats
from engine.digital_model import FACE_OVAL, Person, skin_mask


def face_box(
    points: Floats, shape: tuple[int, ...], margin: float
) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    pad = margin * max(x1 - x0, y1 - y0)
    return (
        max(0, int(x0 - pad)),
        max(0, int(y0 - pad)),
        min(w, int(np.ceil(x1 + pad))),
        min(h, int(np.ceil(y1 + pad))),
    )


# FACE_OVAL positions (indices into the list) of the forehead and temples, in order along the
# outline (left temple, over the top, right temple): these follow the hairline, pushed out while
# the skin goes on and pulled in where hair covers the mesh's outline (a fringe). The jaw points
# stay on the mesh: below the jaw is the neck, skin too.
HAIRLINE = [29, 30, 31, 32, 33, 34, 35, 0, 1, 2, 3, 4, 5, 6, 7]
# How far each may move along its ray from between the eyes, in face heights (brow to chin): a
# forehead reaches about a quarter of a face above the mesh's top, a fringe may hide a fifth; at
# the temples the ray would soon reach an eye or an ear, so they move less.
TEMPLES = {29, 30, 31, 5, 6, 7}
HAIRLINE_OUT, HAIRLINE_IN = 0.25, 0.2
TEMPLE_OUT, TEMPLE_IN = 0.1, 0.08
HAIR_RUN = 4  # of the 40 samples along a ray: about 1/20 of a face height
CENTRE = 168  # between the eyes: the rays to the outline start here


def head_outline(person: Person) -> Float32:
    """The face's outline (FACE_OVAL order, float32 full-size pixels) from the jaw up to the
    hairline: where the skin stops along rays from between the eyes (hair is not skin-coloured).

    Without a skin tone the mesh outline is returned as it is."""
    assert person.face is not None
    outline: Float32 = person.face[FACE_OVAL].astype(np.float32).copy()
    if person.tone is None:
        return outline
    centre = person.face[CENTRE].astype(np.float32)
    height = float(np.linalg.norm(person.face[152] - person.face[10]))
    # Skin likeness in the box the rays can reach (soft, then smoothed: a freckle or a hair
    # strand across the forehead must not stop a ray).
    h, w = person.rgb.shape[:2]
    x0, y0, x1, y1 = face_box(person.face, person.rgb.shape, HAIRLINE_OUT + 0.05)
    crop = np.ascontiguousarray(person.rgb[y0:y1, x0:x1])
    inside = person.subject.cutout.alpha[y0:y1, x0:x1]
    skin = cv2.GaussianBlur(skin_mask(crop, inside, person.tone), (0, 0), 1.5)
    moved = []
    for index in HAIRLINE:
        temple = index in TEMPLES
        reach_in = TEMPLE_IN if temple else HAIRLINE_IN
        reach_out = TEMPLE_OUT if temple else HAIRLINE_OUT
        steps = np.linspace(-reach_in * height, reach_out * height, 40, dtype=np.float32)
        point = outline[index]
        ray = point - centre
        ray /= max(float(np.linalg.norm(ray)), 1e-3)
        samples = point[None] + steps[:, None] * ray[None]
        xs = np.clip(samples[:, 0] - x0, 0, x1 - x0 - 1).astype(int)
        ys = np.clip(samples[:, 1] - y0, 0, y1 - y0 - 1).astype(int)
        on_skin = skin[ys, xs] > 0.5
        zero = int(np.searchsorted(steps, 0.0))
        if on_skin[zero]:
            # Out while the skin goes on: up to the first HAIR_RUN non-skin samples in a row
            # beyond the outline (fewer are a stray hair or a highlight on the forehead).
            beyond = (~on_skin[zero:]).astype(np.int32)
            runs = np.convolve(beyond, np.ones(HAIR_RUN, np.int32), "valid")
            off = np.nonzero(runs == HAIR_RUN)[0]
            last = zero + (int(off[0]) - 1 if len(off) else len(steps) - 1 - zero)
        else:
            # Hair over the outline (a fringe): in to where the skin starts.
            found = np.nonzero(on_skin[:zero])[0]
            last = int(found[-1]) if len(found) else 0
        moved.append(float(steps[last]))
    # Neighbours along the outline agree (one ray through an ear or a strand stays an outlier).
    shift = np.array(moved, np.float32)
    smooth = np.array(
        [np.median(shift[max(0, i - 2) : i + 3]) for i in range(len(shift))], np.float32
    )
    for index, amount in zip(HAIRLINE, smooth, strict=True):
        ray = outline[index] - centre
        outline[index] += amount * ray / max(float(np.linalg.norm(ray)), 1e-3)
    outline[:, 0] = np.clip(outline[:, 0], 0, w - 1)
    outline[:, 1] = np.clip(outline[:, 1], 0, h - 1)
    return outline
