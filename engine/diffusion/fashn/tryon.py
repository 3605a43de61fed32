"""The FASHN try-on model in the generative engine: what a model-swap job hands the GPU thread,
and how a batch of them is sampled (issue 35).

The engine prepares each job on the CPU from what its analysis already has: the digital model's
photo (the person, as it is: the model is segmentation-free), the garment (a garment photo as it
is, or the outfit a dressed person wears cut out on grey: runner.cut_out_garment), its category,
and both poses drawn as the model's grey skeletons (pose.draw_pose). The batch runs through
runner.TryOnRunner; progress and cancel go through the batcher's `on_step` as for every job.

Poses: the published weights were trained on DWPose's keypoints drawn in FASHN's grey style;
the engine's PoseSource is DWPose (fashn/dwpose_source.py). The seam takes our analysis's
landmarks too, for a source that reads them instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import cv2
import numpy as np

from engine import models
from engine.arrays import Image8
from engine.diffusion.batching import Job
from engine.diffusion.fashn.pose import Pose, draw_pose, drawing_size
from engine.diffusion.fashn.runner import TryOnInputs, TryOnRunner
from engine.diffusion.fashn.sampler import REFERENCE, SamplerSettings
from engine.diffusion.masks import OUTFIT
from engine.swap_garment import BOTTOM, DRESS, OUTERWEAR, TOP

OPERATION = "fashn"  # the batcher's job kind: jobs of one kind and steps share a batch

# Our garment classes (swap_garment, masks.OUTFIT) -> the model's three categories. A whole
# outfit (model swap (a)) covers the body as a dress does.
CATEGORY_OF = {TOP: "tops", OUTERWEAR: "tops", BOTTOM: "bottoms", DRESS: "one-pieces",
               OUTFIT: "one-pieces"}


class PoseSource(Protocol):
    """Where a photo's pose comes from: the photo, and the landmarks our analysis found in it
    (None where it found none). None for no person."""

    def __call__(self, rgb: Image8, landmarks: models.Pose | None) -> Pose | None: ...


def pose_image(pose: Pose | None, shape: tuple[int, ...]) -> Image8:
    """The grey skeleton at the photo's size: drawn at the size the reference draws it (limb
    widths are in those pixels), then brought to the photo's size by nearest neighbours so its
    grey levels stay (the runner fits it into the native frame the same way)."""
    height, width = shape[:2]
    drawn = draw_pose(pose, *drawing_size(height, width))
    if drawn.shape == (height, width):
        return drawn
    return np.asarray(cv2.resize(drawn, (width, height), interpolation=cv2.INTER_NEAREST),
                      np.uint8)


def job_inputs(person: Image8, person_pose: Pose | None, garment: Image8,
               garment_pose: Pose | None, kind: str) -> TryOnInputs:
    """The model's inputs for one try-on; `kind` is our garment class (CATEGORY_OF)."""
    if kind not in CATEGORY_OF:
        raise ValueError(f"no try-on category for garment class {kind!r}")
    return TryOnInputs(person, pose_image(person_pose, person.shape), garment,
                       None if garment_pose is None else pose_image(garment_pose, garment.shape),
                       CATEGORY_OF[kind])


def run_batch(runner: TryOnRunner, jobs: Sequence[Job],
              on_step: Callable[[int], None]) -> list[Image8]:
    """One batch of try-on jobs (same steps): the native frames, in order. `on_step` is the
    batcher's: it raises batching.JobCancelled once every job of the batch is cancelled, which
    stops the sampler between steps."""
    settings = SamplerSettings(steps=jobs[0].steps, guidance=REFERENCE.guidance,
                               shift=REFERENCE.shift, unguided_last=REFERENCE.unguided_last)
    outputs = runner.run([job.payload["inputs"] for job in jobs], [job.seed for job in jobs],
                         settings, on_step,
                         cancelled=lambda: all(job.cancelled.is_set() for job in jobs))
    return [output.frame for output in outputs]


__all__ = ["CATEGORY_OF", "OPERATION", "PoseSource", "job_inputs", "pose_image", "run_batch"]
