"""The bundled mediapipe 0.10.14 models, loaded once per process.

mediapipe's solution objects are not thread-safe, so each model sits behind its own lock; the
imaging worker runs at most a couple of engine calls at once, and each model call is short
(10-50 ms), so this serialises little. Only models that ship inside the wheel are used:
pose with model_complexity=1 (0 and 2 would try to download), both selfie segmentation models
(general 256x256 and landscape 144x256), face mesh and both face detectors.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.arrays import Float32, Image8, Mask

# Landmark indices in mediapipe's pose model.
NOSE = 0
LEFT_SHOULDER, RIGHT_SHOULDER = 11, 12
LEFT_ELBOW, RIGHT_ELBOW = 13, 14
LEFT_WRIST, RIGHT_WRIST = 15, 16
LEFT_HIP, RIGHT_HIP = 23, 24
LEFT_ANKLE, RIGHT_ANKLE = 27, 28
LEFT_HEEL, RIGHT_HEEL = 29, 30
LEFT_FOOT, RIGHT_FOOT = 31, 32


@dataclass(frozen=True)
class Pose:
    """Landmarks in pixels of the analysed image: (33, 2) positions and (33,) visibility."""

    points: Float32
    visibility: Float32
    mask: Mask  # float32 person probability, the analysed image's size


class _Guarded:
    def __init__(self, build: Any) -> None:
        self._build = build
        self._model: Any = None
        self.lock = threading.Lock()

    def get(self) -> Any:
        # Called with self.lock held.
        if self._model is None:
            self._model = self._build()
        return self._model


def _pose_model() -> Any:
    import mediapipe as mp

    return mp.solutions.pose.Pose(
        static_image_mode=True, model_complexity=1, enable_segmentation=True
    )


def _selfie_model(model_selection: int) -> Any:
    import mediapipe as mp

    # 0: the general model (square input), 1: the landscape one (wider input, a little
    # coarser). Their errors differ (one misses a limb the other keeps, one takes in a patch
    # of sky the other leaves out), so their mean is better than either.
    return mp.solutions.selfie_segmentation.SelfieSegmentation(model_selection=model_selection)


def _face_mesh_model() -> Any:
    import mediapipe as mp

    return mp.solutions.face_mesh.FaceMesh(
        static_image_mode=True, max_num_faces=1, refine_landmarks=False
    )


def _face_detector(model_selection: int) -> Any:
    import mediapipe as mp

    # 0: faces within about 2 m (short range); 1: up to about 5 m (full range). Both ship in
    # the wheel.
    return mp.solutions.face_detection.FaceDetection(
        model_selection=model_selection, min_detection_confidence=0.5
    )


_POSE = _Guarded(_pose_model)
_SELFIE = _Guarded(lambda: _selfie_model(0))
_SELFIE_WIDE = _Guarded(lambda: _selfie_model(1))
_FACE = _Guarded(_face_mesh_model)
_FACES_NEAR = _Guarded(lambda: _face_detector(0))
_FACES_FAR = _Guarded(lambda: _face_detector(1))


@dataclass(frozen=True)
class FaceBox:
    """A detected face: its box in pixels of the analysed image, and the detector's score."""

    x: float
    y: float
    width: float
    height: float
    score: float


def pose(rgb: Image8) -> Pose | None:
    """Body landmarks and segmentation of the most prominent person, or None."""
    with _POSE.lock:
        result = _POSE.get().process(rgb)
    if result.pose_landmarks is None:
        return None
    h, w = rgb.shape[:2]
    marks = result.pose_landmarks.landmark
    points = np.array([[m.x * w, m.y * h] for m in marks], dtype=np.float32)
    visibility = np.array([m.visibility for m in marks], dtype=np.float32)
    mask = (
        np.asarray(result.segmentation_mask, dtype=np.float32)
        if result.segmentation_mask is not None
        else np.zeros((h, w), np.float32)
    )
    return Pose(points, visibility, mask)


def selfie_mask(rgb: Image8) -> Mask:
    """Person probability per pixel (float32, the input's size)."""
    with _SELFIE.lock:
        result = _SELFIE.get().process(rgb)
    return np.asarray(result.segmentation_mask, dtype=np.float32)


def person_probability(rgb: Image8) -> Mask:
    """Person probability per pixel from both selfie models, averaged (float32, the input's
    size). Each model stretches its input to a fixed size, so callers keep `rgb` near square."""
    general = selfie_mask(rgb)
    with _SELFIE_WIDE.lock:
        result = _SELFIE_WIDE.get().process(rgb)
    wide = np.asarray(result.segmentation_mask, dtype=np.float32)
    return np.asarray((general + wide) * 0.5, np.float32)


def face_landmarks(rgb: Image8) -> Float32 | None:
    """(468, 2) face mesh points in pixels, or None when no face is found."""
    with _FACE.lock:
        result = _FACE.get().process(rgb)
    if not result.multi_face_landmarks:
        return None
    h, w = rgb.shape[:2]
    marks = result.multi_face_landmarks[0].landmark
    return np.array([[m.x * w, m.y * h] for m in marks], dtype=np.float32)


def faces(rgb: Image8) -> list[FaceBox]:
    """Every face either face detector finds (near and far range), in pixels. The same face
    found by both appears twice; see analysis.count_people, which merges them."""
    h, w = rgb.shape[:2]
    found: list[FaceBox] = []
    for guarded in (_FACES_NEAR, _FACES_FAR):
        with guarded.lock:
            result = guarded.get().process(rgb)
        for detection in result.detections or []:
            box = detection.location_data.relative_bounding_box
            found.append(
                FaceBox(
                    box.xmin * w, box.ymin * h, box.width * w, box.height * h,
                    float(detection.score[0]),
                )
            )
    return found


def warm_up() -> None:
    """Load every model now (the worker does this at start, so no user waits for it)."""
    blank = np.full((256, 192, 3), 200, np.uint8)
    pose(blank)
    person_probability(blank)
    face_landmarks(blank)
    faces(blank)
