"""DWPose as the try-on's pose source (fashn/tryon.PoseSource): a photo's pose as the reference
finds it before drawing it for the model.

The reference fits the photo inside 864x864 (PIL's Lanczos, never enlarged: pose.drawing_size)
and runs DWPose on that; the person to dress is the largest confident body (pose.best_person).
The pose comes back as fractions of the photo, so it draws at any size. Our analysis's landmarks
are not needed here (the PoseSource call passes them; DWPose finds its own).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from engine import models
from engine.arrays import Image8
from engine.diffusion.fashn.dwpose import DWPose
from engine.diffusion.fashn.pose import Pose, best_person, drawing_size


def fitted(rgb: Image8) -> Image8:
    """The photo as the reference gives it to DWPose: fitted inside 864x864, never enlarged."""
    height, width = drawing_size(*rgb.shape[:2])
    if (height, width) == rgb.shape[:2]:
        return rgb
    smaller = Image.fromarray(rgb).resize((width, height), Image.Resampling.LANCZOS)
    return np.asarray(smaller, np.uint8)


class DWPoseSource:
    """A PoseSource over one loaded DWPose (its onnxruntime sessions may run from any thread)."""

    def __init__(self, dwpose: DWPose) -> None:
        self.dwpose = dwpose

    def __call__(self, rgb: Image8, landmarks: models.Pose | None) -> Pose | None:
        photo = fitted(rgb)
        people = self.dwpose(photo)
        chosen = best_person(people.keypoints, people.scores)
        return Pose.from_wholebody(people.keypoints[chosen], people.scores[chosen],
                                   photo.shape[1], photo.shape[0])
