"""From photos to the try-on model and back (numpy in, numpy out; torch stays in here).

Every input is fitted whole into the model's native frame (576x864 for the published weights),
centred and padded with black as the reference pads; poses are resized with nearest neighbours
so that the skeleton's grey levels stay those it was drawn with. The output is the native frame
and the box the person photo occupies in it: the engine takes the result out of that box and
places it in the job's frame (frames.unletterbox, paste_inside).

What goes in, as the reference's default (segmentation-free) mode prepares it: the person photo
as it is (no region masked: the garment may take its own shape), the garment photo as it is for
a flat-lay, or with everything but the garment greyed out (`cut_out_garment`) for a garment worn
by someone; each photo's pose drawn by pose.draw_pose. Not here yet (issue 35 section 1, next
steps): DWPose itself (ONNX, onnxruntime) and the garment mask from our own segmentation in
place of the reference's non-commercial human parser; a caller passes those in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
from torch import Tensor

from engine.arrays import BoolMask, Image8
from engine.diffusion.fashn.config import CATEGORIES
from engine.diffusion.fashn.loading import load_tryon
from engine.diffusion.fashn.model import Conditions, TryOnMMDiT
from engine.diffusion.fashn.options import RunnerOptions, attention, prepare
from engine.diffusion.fashn.sampler import REFERENCE, SamplerSettings, sample
from engine.diffusion.frames import Box, fit_box, letterbox

PAD = 0  # black, as the reference pads both images and poses
NOT_GARMENT = 127  # the grey the reference paints over whatever is not the garment


def cut_out_garment(photo: Image8, garment: BoolMask) -> Image8:
    """A photo of a worn garment with everything outside `garment` grey, as the model saw
    garments worn by someone in training (a flat-lay goes in as it is)."""
    if garment.shape != photo.shape[:2]:
        raise ValueError(f"the garment mask is {garment.shape[1]}x{garment.shape[0]}, the photo "
                         f"{photo.shape[1]}x{photo.shape[0]}")
    return np.where(garment[..., None], photo, np.uint8(NOT_GARMENT)).astype(np.uint8)


@dataclass(frozen=True)
class TryOnInputs:
    """One try-on: uint8 arrays of any size (each pose the size of its photo)."""

    person: Image8  # RGB: the person as photographed (segmentation-free)
    person_pose: Image8  # (H, W) grey skeleton of the person
    garment: Image8  # RGB: a flat-lay as photographed, a worn garment cut out
    garment_pose: Image8 | None  # (H, W) grey skeleton of who wears it; None for a flat-lay
    category: str  # a key of CATEGORIES

    def check(self) -> None:
        if self.category not in CATEGORIES:
            raise ValueError(f"category {self.category!r} is not one of "
                             f"{', '.join(CATEGORIES)}")
        for name, photo, pose in (("person", self.person, self.person_pose),
                                  ("garment", self.garment, self.garment_pose)):
            if photo.ndim != 3 or photo.shape[2] != 3:
                raise ValueError(f"the {name} image must be RGB, got shape {photo.shape}")
            if pose is not None and pose.shape != photo.shape[:2]:
                raise ValueError(f"the {name}'s pose is {pose.shape[1]}x{pose.shape[0]}, its "
                                 f"photo {photo.shape[1]}x{photo.shape[0]}")


@dataclass(frozen=True)
class TryOnOutput:
    frame: Image8  # RGB at the model's native size
    box: Box  # where the person photo sits in `frame` (outside it: padding)


def fit_pose(pose: Image8, size: tuple[int, int]) -> Image8:
    """A pose image fitted like its photo (same box), nearest neighbours."""
    box = fit_box(pose.shape, size)
    resized = cv2.resize(pose, (box.width, box.height), interpolation=cv2.INTER_NEAREST_EXACT)
    frame = np.full((size[1], size[0]), PAD, np.uint8)
    frame[box.y : box.y + box.height, box.x : box.x + box.width] = resized
    return frame


def to_model(image: Image8) -> Tensor:
    """uint8 (H, W) or (H, W, C) -> float (C, H, W) in [-1, 1]."""
    array = torch.from_numpy(np.ascontiguousarray(image)).float()
    array = array[None] if array.ndim == 2 else array.permute(2, 0, 1)
    return array / 127.5 - 1.0


def to_image(tensor: Tensor) -> Image8:
    """float (3, H, W) in [-1, 1] -> uint8 (H, W, 3), rounded."""
    scaled = (tensor.float().clamp(-1, 1) + 1.0) * 127.5
    return np.asarray(scaled.round().permute(1, 2, 0).cpu().numpy(), np.uint8)


class TryOnRunner:
    """The loaded try-on model and what it takes to run it on photos. `options` are how it runs
    (options.py; the default is the reference); one that the model's device cannot run raises
    options.NeedsCuda here."""

    def __init__(self, model: TryOnMMDiT, options: RunnerOptions | None = None) -> None:
        self.model = model
        self.options = options or RunnerOptions()
        # What the sampler calls: the model itself, or its fp8 and/or compiled form.
        self.forward: TryOnMMDiT = prepare(model, self.options)
        self.size = (model.config.width, model.config.height)

    @classmethod
    def from_file(cls, path: Path | str, device: torch.device | str = "cpu",
                  dtype: torch.dtype = torch.float32,
                  options: RunnerOptions | None = None) -> TryOnRunner:
        return cls(load_tryon(path, device, dtype), options)

    def prepare(self, inputs: Sequence[TryOnInputs]) -> tuple[Conditions, list[Box]]:
        """The batch's conditioning tensors (on the model's device and dtype) and, per input,
        the person's box in the native frame."""
        people, person_poses, garments, garment_poses, boxes = [], [], [], [], []
        for item in inputs:
            item.check()
            person, box = letterbox(item.person, self.size, fill=PAD)
            garment, _ = letterbox(item.garment, self.size, fill=PAD)
            blank = np.full(item.garment.shape[:2], PAD, np.uint8)
            people.append(to_model(person))
            person_poses.append(to_model(fit_pose(item.person_pose, self.size)))
            garments.append(to_model(garment))
            garment_poses.append(to_model(fit_pose(
                blank if item.garment_pose is None else item.garment_pose, self.size)))
            boxes.append(box)
        weight = self.model.final_layer.linear.weight

        def batch(images: list[Tensor]) -> Tensor:
            return torch.stack(images).to(weight.device, weight.dtype)

        category = torch.tensor([CATEGORIES[item.category] for item in inputs],
                                dtype=torch.long, device=weight.device)
        return Conditions(batch(people), batch(person_poses), batch(garments),
                          batch(garment_poses), category), boxes

    def run(self, inputs: Sequence[TryOnInputs], seeds: Sequence[int],
            settings: SamplerSettings = REFERENCE,
            on_step: Callable[[int], None] | None = None,
            cancelled: Callable[[], bool] | None = None) -> list[TryOnOutput]:
        """Samples the batch (one seed per input); see sampler.sample for the callbacks."""
        conditions, boxes = self.prepare(inputs)
        with attention(self.options.attention):
            images = sample(self.forward, conditions, seeds, settings, on_step, cancelled)
        return [TryOnOutput(to_image(image), box)
                for image, box in zip(images, boxes, strict=True)]
