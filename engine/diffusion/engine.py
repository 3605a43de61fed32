"""The generative engine: core.engine.ImageEngine on latent diffusion (ENGINE=diffusion).

Same interface, activity and queue as the CPU engine; what differs is how pixels are made:
- model swap (b), a garment photo: the digital model wears it, repainted by the try-on model in
  the region our body analysis gives for the garment's class (engine/diffusion/masks.py);
- model swap (a), a person photo: the outfit they wear, cut out by our segmentation, is the
  garment, and the digital model wears it the same way;
- a photo background: the subject is placed by our placement rules (ground, scale, shadow;
  engine/compose.place_on_photo), then relit to the scene by the relight model.
Everything outside the repainted region is the source's own pixels, pasted back exactly; white and
transparent backgrounds are composited as the CPU engine does (there is no scene to relight to).

Each call prepares its job on the CPU in the caller's thread, hands it to the one GPU thread
(engine/diffusion/batching.py, which batches concurrent calls) and reports every denoising step
as progress. The same request gives the same image: the noise's seed is a hash of the inputs (and
DIFFUSION_SEED), so a retry after a crash reproduces it.

Nothing generated is used unchecked: the artefact gate (engine/diffusion/gate.py) scores every
denoised frame, and a try-on is also checked for fidelity after its paste-back (the garment's
colour, pattern and print, the model's face, skin and proportions: engine/diffusion/fidelity); a
refused one is sampled once more with another seed (derived from the first, so that too is
reproducible), and a second refusal fails the task as not retryable, refunded.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from PIL import Image

from core.engine import (
    Background,
    NoGarmentFound,
    NoPersonFound,
    Placement,
    ProgressFn,
    no_progress,
)
from engine import compose, quality
from engine.analysis import check_size, find_subject, swap_subject
from engine.arrays import BoolMask, Image8, Mask
from engine.background import apply_background
from engine.compose import Cutout
from engine.cpu import to_array
from engine.diffusion import fidelity, frames, gate, masks
from engine.diffusion.batching import Batcher, Job, wait
from engine.diffusion.fashn import tryon as fashn
from engine.diffusion.fashn.pose import Pose
from engine.diffusion.fashn.runner import cut_out_garment
from engine.diffusion.settings import DiffusionSettings
from engine.diffusion.weights import FASHN, FASHN_WEIGHTS, verify
from engine.digital_model import Person, analyse_person, digital_model
from engine.swap_garment import UNKNOWN, classify_garment

log = logging.getLogger("engine.diffusion")

# The share of a call's progress before denoising starts (analysis, masks) and after it ends
# (decoding, pasting, compositing): the steps fill the rest, one report each.
DENOISE_FROM, DENOISE_TO = 0.2, 0.9
SUBJECT_GREY = 127.0  # IC-Light's foreground is the subject on neutral grey
FEATHER = 0.004  # the paste-back's soft edge inside the mask, as a share of the photo's long side


# A try-on's fidelity check of one denoised frame (its seed and attempt number given).
Judge = Callable[[Image8, int, int], fidelity.FidelityReport]
# The garment as the user sent it: the photo, and where the garment is in it.
GarmentSource = tuple[Image8, BoolMask]


def seed_of(*parts: bytes) -> int:
    digest = hashlib.blake2b(digest_size=8)
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    return int.from_bytes(digest.digest(), "little") & (2**63 - 1)


class DiffusionEngine:
    """Implements core.engine.ImageEngine with the diffusion models. Safe to call from several
    threads (the worker's imaging concurrency): calls that overlap share denoising batches."""

    def __init__(self, settings: DiffusionSettings) -> None:
        # The weights are checked before anything loads: a missing or corrupt file stops the
        # worker here, with its name (WeightsError).
        checked = verify(settings.weights_dir, settings.tryon)
        if settings.tryon == FASHN:
            # FASHN's try-on file: its keys and shapes are checked from its header (milliseconds,
            # no tensor read), so a file that does not fit the model stops the worker here,
            # naming the key, rather than at its first try-on.
            from engine.diffusion.fashn.loading import inspect_tryon  # torch: imaging only

            inspect_tryon(settings.weights_dir / FASHN_WEIGHTS)
        from engine.diffusion.pipelines import Models  # torch: the imaging environment only

        self.settings = settings
        self.models = Models(settings.weights_dir, settings.device, settings.dtype,
                             settings.compile, settings.tryon)
        # FASHN's poses: DWPose's (onnxruntime), the keypoints its weights were trained on.
        self.pose_source: fashn.PoseSource | None = None
        if self.models.fashn is not None:
            from engine.diffusion.fashn.dwpose import DWPose
            from engine.diffusion.fashn.dwpose_source import DWPoseSource

            self.pose_source = DWPoseSource(DWPose.from_weights(settings.weights_dir,
                                                                str(self.models.device)))
        multiple = self.models.multiple()
        if any(side % multiple for side in settings.size):
            raise ValueError(f"DIFFUSION_SIZE {settings.size[0]}x{settings.size[1]}: both sides "
                             f"must divide by {multiple} for these models")
        self.batcher = Batcher(self.models.run, settings.max_batch, settings.batch_window)
        self.files_checked = checked
        self.warm_up_seconds = 0.0
        log.info("%s; %d weight files verified; working size %dx%d, %d steps, batches up to %d; "
                 "try-on: %s", self.models.report.line(), checked, *settings.size,
                 settings.steps, settings.max_batch, settings.tryon)

    # ------------------------------------------------------------------------------------------
    # Start-up

    def warm_up(self) -> None:
        """One small job of each kind through the whole path (kernels chosen, memory allocated,
        compiled graphs built), so no user's first image pays for it."""
        started = time.monotonic()
        width, height = self.settings.size
        grey = np.full((height, width, 3), 127, np.uint8)
        mask = np.zeros((height, width), bool)
        mask[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4] = True
        kinds: list[tuple[str, tuple[int, int], dict[str, Any]]] = [
            ("relight", (width, height), {"subject": grey, "scene": grey})]
        if self.models.fashn is None:
            kinds.append(("tryon", (width, height),
                          {"person": grey, "garment": grey, "mask": mask}))
        else:  # FASHN works at its native size, whatever the photo's
            kinds.append((fashn.OPERATION, self.models.fashn.size, {"inputs": fashn.job_inputs(
                grey, None, grey, None, masks.OUTFIT)}))
        for key, size, payload in kinds:
            job = Job((key, *size, 2), {**payload, "operation": key}, seed=0, steps=2)
            wait(self.batcher.submit(job), lambda _step: None)
        self.warm_up_seconds = time.monotonic() - started
        log.info("diffusion engine warmed up in %.1f s", self.warm_up_seconds)

    def load_report(self) -> dict[str, Any]:
        """What the worker logs and exports as metrics at start."""
        report = self.models.report
        return {
            "engine": "diffusion",
            "device": report.device,
            "dtype": report.dtype,
            "parameters": report.parameters,
            "memory_bytes": self.models.memory_bytes(),
            "load_seconds": report.seconds,
            "warm_up_seconds": self.warm_up_seconds,
            "max_batch": self.batcher.max_batch,
        }

    def close(self) -> None:
        self.batcher.close()

    # ------------------------------------------------------------------------------------------
    # Denoising

    def _denoise(self, operation: str, payload: dict[str, Any], seed: int,
                 progress: ProgressFn, box: frames.Box, size: tuple[int, int] | None = None,
                 steps: int | None = None, judge: Judge | None = None) -> Image8:
        """The denoised working frame (`size`, DIFFUSION_SIZE unless given), checked by the
        artefact gate inside `box` (where the photo sits) and by `judge` (a try-on's fidelity,
        scored even on a frame the artefact gate refuses, so every image's scores are logged):
        a refused frame is sampled again with another seed, a second refusal raises
        gate.ArtefactRefused (or fidelity.FidelityRefused when only fidelity refused it). With
        DiffusionSettings.gate "pass" it is scored only."""
        width, height = size or self.settings.size
        steps = steps or self.settings.steps
        span = DENOISE_TO - DENOISE_FROM
        progress = never_back(progress)  # a second sample must not move the bar back
        attempts = (seed, seed_of(seed.to_bytes(8, "little"), b"another seed"))
        for attempt, attempt_seed in enumerate(attempts, start=1):
            job = Job((operation, width, height, steps), {**payload, "operation": operation},
                      seed=attempt_seed, steps=steps)
            stage = "denoising" if attempt == 1 else "denoising again with another seed"

            def report(step: int, stage: str = stage) -> None:
                progress(DENOISE_FROM + span * step / steps, f"{stage}, step {step} of {steps}")

            result: Image8 = wait(self.batcher.submit(job), report)
            scored = gate.check(result[box.y : box.y + box.height, box.x : box.x + box.width],
                                operation, attempt_seed, attempt)
            judged = None if judge is None else judge(result, attempt_seed, attempt)
            faithful = judged is None or judged.passed
            if (scored.passed and faithful) or self.settings.gate == "pass":
                return result
        if scored.passed and judged is not None:
            raise fidelity.refuse(judged)
        raise gate.refuse(scored)

    def _seed(self, operation: str, *images: Image8) -> int:
        return seed_of(operation.encode(), str(self.settings.seed).encode(),
                       *(image.tobytes() + repr(image.shape).encode() for image in images))

    # ------------------------------------------------------------------------------------------
    # Try-on (model swap)

    def _judge(self, person: Person, source: GarmentSource, region: BoolMask, operation: str,
               dress: Callable[[Image8], Image8]) -> tuple[Judge, dict[int, Image8]]:
        """The fidelity check of a try-on's denoised frames: `dress` makes the delivered image of
        one (unletterboxed, pasted back), which is scored against the garment photo `source`
        (its pixels and the garment's mask in them). The dressed images are kept by the frame's
        id, so the one delivered is not made twice."""
        reference = fidelity.Reference(source[0], source[1], person, region)
        dressed: dict[int, Image8] = {}

        def judge(frame: Image8, seed: int, attempt: int) -> fidelity.FidelityReport:
            dressed[id(frame)] = dress(frame)
            return fidelity.check(dressed[id(frame)], reference, operation, seed, attempt)

        return judge, dressed

    def _fashn(self, person: Person, garment: Image8, garment_pose: Pose | None, kind: str,
               seed: int, progress: ProgressFn, source: GarmentSource) -> tuple[Image8, Mask]:
        """FASHN's try-on: `person` (the digital model, as photographed) wearing `garment` (a
        garment photo as it is, or a worn outfit cut out on grey, with its wearer's pose). The
        model repaints its whole native frame; only the garment's region of the model photo
        takes it (the rest is pasted back exactly)."""
        runner = self.models.fashn
        assert runner is not None  # DIFFUSION_TRYON=fashn loads it
        region = self._region(person, kind)
        inputs = fashn.job_inputs(person.rgb, self._pose(person.rgb, person),
                                  garment, garment_pose, kind)
        box = frames.fit_box(person.rgb.shape, runner.size)

        def dress(frame: Image8) -> Image8:
            generated = frames.unletterbox(frame, box, person.rgb.shape)
            return self._paste(person, generated, region)[0]

        judge, dressed = self._judge(person, source, region, fashn.OPERATION, dress)
        frame = self._denoise(fashn.OPERATION, {"inputs": inputs}, seed, progress, box,
                              runner.size, self.settings.tryon_steps, judge)
        return dressed[id(frame)], self._matte(person, region)

    def _pose(self, rgb: Image8, person: Person) -> Pose | None:
        assert self.pose_source is not None  # loaded with FASHN's try-on
        return self.pose_source(rgb, person.pose)

    @staticmethod
    def _region(person: Person, kind: str) -> BoolMask:
        region = masks.tryon_mask(person, kind)
        if masks.mask_share(region) < masks.MIN_SHARE:
            raise NoPersonFound("The chosen model's body could not be analysed for this "
                                "garment; choose another model.")
        return region

    @staticmethod
    def _paste(person: Person, generated: Image8, region: BoolMask) -> tuple[Image8, Mask]:
        """The model photo with `generated` inside `region` (feathered inwards: not one pixel
        outside it changes), and the dressed person's matte."""
        weight = frames.inner_feather(region, FEATHER * max(region.shape))
        dressed = frames.paste_inside(person.rgb, generated, weight)
        return dressed, DiffusionEngine._matte(person, region)

    @staticmethod
    def _matte(person: Person, region: BoolMask) -> Mask:
        alpha = np.maximum(person.subject.cutout.alpha, region.astype(np.float32))
        return np.asarray(alpha, np.float32)

    def _tryon(self, person: Person, garment: Image8, kind: str, seed: int,
               progress: ProgressFn, source: GarmentSource) -> tuple[Image8, Mask]:
        """CatVTON's try-on: `person` (the digital model) wearing `garment` (the condition
        image): the model photo repainted inside the garment's region, and the matte."""
        region = self._region(person, kind)
        size = self.settings.size
        person_frame, box = frames.letterbox(person.rgb, size)
        mask_frame, _ = frames.letterbox(region.astype(np.uint8), size, fill=0)
        garment_frame, _ = frames.letterbox(garment, size)
        payload = {"person": person_frame, "garment": garment_frame, "mask": mask_frame > 0}

        def dress(frame: Image8) -> Image8:
            generated = frames.unletterbox(frame, box, person.rgb.shape)
            return self._paste(person, generated, region)[0]

        judge, dressed = self._judge(person, source, region, "tryon", dress)
        frame = self._denoise("tryon", payload, seed, progress, box, judge=judge)
        return dressed[id(frame)], self._matte(person, region)

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        rgb = to_array(photo)
        model_rgb = to_array(model)
        check_size(rgb)
        check_size(model_rgb, "The model photo")
        progress(0.02, "analysing the photo")
        subject = swap_subject(rgb)
        progress(0.1, "analysing the model")
        digital = digital_model(model_rgb)
        wearer: Pose | None = None  # the pose of whoever wears the garment (FASHN's input)
        if subject.cutout.kind == "person":
            # Model swap (a): the outfit the person wears is the garment.
            dressed_person = analyse_person(rgb, subject)
            worn = masks.worn_garment(dressed_person)
            if masks.mask_share(worn > 0.5) < masks.MIN_SHARE:
                raise NoGarmentFound("No clothing could be found on the person in the photo.")
            kind = masks.OUTFIT
            source = (rgb, worn > 0.5)
            if self.models.fashn is None:
                garment = masks.garment_condition(rgb, worn)
            else:  # FASHN saw worn garments as the photo with all else grey
                garment = cut_out_garment(rgb, worn > 0.5)
                wearer = self._pose(rgb, dressed_person)
        else:
            alpha = subject.cutout.alpha
            if float((alpha > 0.5).mean()) < 0.02:
                raise NoGarmentFound("No garment could be separated from the background of the "
                                     "photo.")
            found = classify_garment(alpha)
            if found.kind == UNKNOWN:
                raise NoGarmentFound(f"The garment could not be recognised ({found.reason}).")
            kind = found.kind
            source = (rgb, alpha > 0.5)
            # FASHN takes a garment photo as it is; CatVTON the garment cut out on white.
            garment = rgb if self.models.fashn is not None else masks.garment_condition(rgb, alpha)
        seed = self._seed("tryon", rgb, model_rgb)
        # With a scene to relight to, two denoising passes share the progress bar.
        relight = background is not None and background.kind == "image"
        first = within(progress, 0.0, 0.55) if relight else progress
        if self.models.fashn is not None:
            dressed, alpha = self._fashn(digital, garment, wearer, kind, seed, first, source)
        else:
            dressed, alpha = self._tryon(digital, garment, kind, seed, first, source)
        first(DENOISE_TO, "finishing")
        if background is None:
            image = Image.fromarray(dressed, "RGB")
        else:
            feet = digital.subject.cutout.feet_visible
            cut = Cutout(dressed, alpha, "person", feet)
            image = self._composite(cut, background, placement, seed,
                                    within(progress, 0.55, 1.0))
        progress(1.0, "done")
        return image

    # ------------------------------------------------------------------------------------------
    # Background replace (relit composites)

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        rgb = to_array(photo)
        progress(0.02, "finding the subject")
        subject = find_subject(rgb)
        quality.check_cutout(subject.cutout.rgb, subject.cutout.alpha, subject.backdrop)
        progress(0.15, "placing on the background")
        seed = self._seed("relight", rgb, self._background_pixels(background))
        image = self._composite(subject.cutout, background, placement, seed, progress)
        progress(1.0, "done")
        return image

    @staticmethod
    def _background_pixels(background: Background) -> Image8:
        if background.image is None:
            return np.frombuffer(background.kind.encode(), np.uint8)
        return np.asarray(background.image.convert("RGB"))

    def relit(self, cut: Cutout, scene: Image8, placement: Placement | None, seed: int,
              progress: ProgressFn = no_progress) -> tuple[Image8, compose.Placed]:
        """The subject placed on `scene` by our rules and relit to it; pixels where the placed
        matte is 0 are the placed composite's own (the scene with the subject's shadow)."""
        placed = compose.place_on_photo(cut, scene, adjustment=placement)
        base = compose.over(placed.canvas, placed.rgb, placed.alpha, placed.shadow)
        a = placed.alpha[..., None]
        on_grey = placed.rgb.astype(np.float32) * a + SUBJECT_GREY * (1.0 - a)
        size = self.settings.size
        subject_frame, box = frames.letterbox(np.clip(on_grey + 0.5, 0, 255).astype(np.uint8),
                                              size)
        scene_frame, _ = frames.letterbox(placed.canvas, size)
        payload = {"subject": subject_frame, "scene": scene_frame}
        small = self._denoise("relight", payload, seed, progress, box)
        relit = frames.unletterbox(small, box, base.shape)
        relit = frames.restore_detail(relit, placed.rgb, base.shape[1] / box.width)
        return frames.paste_inside(base, relit, placed.alpha), placed

    def _composite(self, cut: Cutout, background: Background, placement: Placement | None,
                   seed: int, progress: ProgressFn) -> Image.Image:
        if background.kind != "image" or background.image is None:
            return apply_background(cut, background, placement)
        scene = np.asarray(background.image.convert("RGB"))
        image, _ = self.relit(cut, scene, placement, seed, progress)
        return Image.fromarray(image, "RGB")


def never_back(progress: ProgressFn) -> ProgressFn:
    """`progress` that never reports less than it already has (the stage still changes)."""
    highest = [0.0]

    def report(fraction: float, stage: str) -> None:
        highest[0] = max(highest[0], fraction)
        progress(highest[0], stage)

    return report


def within(progress: ProgressFn, low: float, high: float) -> ProgressFn:
    """`progress` for one part of a call: its 0..1 maps onto `low`..`high` of the whole."""

    def report(fraction: float, stage: str) -> None:
        progress(low + (high - low) * fraction, stage)

    return report


__all__ = ["DiffusionEngine", "DiffusionSettings", "seed_of"]
