"""The two latent-diffusion models and their denoising loops, on torch + diffusers (imaging
environment only).

Try-on (learnt from CatVTON, arXiv 2407.15886): a Stable Diffusion 1.5 inpainting UNet (9 input
channels: noisy latent 4 + mask 1 + masked-image latent 4) with no text or image encoder. The
person with the garment's region blanked out and the garment image are encoded by the VAE and
concatenated side by side into one latent twice as wide, so the UNet's self-attention sees both
and carries the garment into the masked region. Cross-attention is skipped (CatVTON trains the
self-attention only, and publishes those weights). Classifier-free guidance drops the garment.

Relight (learnt from IC-Light's fbc model): an SD1.5 UNet whose input convolution takes 12
channels: the noisy latent 4 + the foreground's latent 4 (the placed subject on grey) + the
background's latent 4, with a text prompt through CLIP. It repaints the subject lit by the scene.

Everything runs in one GPU thread (batching.Batcher), on batches of jobs of one kind and size.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from diffusers import AutoencoderKL, DPMSolverMultistepScheduler, UNet2DConditionModel
from diffusers.models.attention_processor import AttnProcessor2_0
from safetensors.torch import load_file
from transformers import CLIPTextModel, CLIPTokenizer

from engine.arrays import BoolMask, Image8
from engine.diffusion.batching import Job, OutOfMemory
from engine.diffusion.fashn.runner import TryOnRunner
from engine.diffusion.fashn.tryon import OPERATION as FASHN_OPERATION
from engine.diffusion.fashn.tryon import run_batch as run_fashn
from engine.diffusion.weights import FASHN_WEIGHTS, IN_CHANNELS, WeightsError

log = logging.getLogger("engine.diffusion")

# Stable Diffusion 1.5's noise schedule (both UNets were trained on it), solved with
# DPM-Solver++ (2nd order multistep): good images in 20-30 steps where DDIM needs 50.
SCHEDULE: dict[str, Any] = {
    "num_train_timesteps": 1000,
    "beta_start": 0.00085,
    "beta_end": 0.012,
    "beta_schedule": "scaled_linear",
    "prediction_type": "epsilon",
    "steps_offset": 1,
    "algorithm_type": "dpmsolver++",
    "solver_order": 2,
}
TRYON_GUIDANCE = 2.5  # CatVTON's default
# The try-on models: FASHN VTON v1.5 (Apache-2.0, the default) or CatVTON (CC BY-NC-SA 4.0: only
# with ALLOW_NON_COMMERCIAL_WEIGHTS, which production refuses; core/settings.py checks it).
TRYON_MODELS = ("fashn", "catvton")
RELIGHT_GUIDANCE = 7.0  # IC-Light's demo default
RELIGHT_PROMPT = "a person standing in the scene, natural lighting, sharp, best quality"
RELIGHT_NEGATIVE = "lowres, bad anatomy, bad hands, cropped, worst quality"


class SkipAttention(torch.nn.Module):  # type: ignore[misc]
    """CatVTON's processor for the UNet's cross-attention: it returns its input unchanged (the
    block then adds it to its residual, as CatVTON trained it)."""

    def __call__(self, attn: Any, hidden_states: torch.Tensor, *args: Any,
                 **kwargs: Any) -> torch.Tensor:
        return hidden_states


def attention_modules(unet: UNet2DConditionModel) -> torch.nn.ModuleList:
    """The modules CatVTON trains and publishes, in its order: every module whose name holds
    "attn1" (each self-attention and its projections), as CatVTON's get_trainable_module builds
    them; its checkpoint is this ModuleList's state dict."""
    return torch.nn.ModuleList(
        [module for name, module in unet.named_modules() if "attn1" in name])


def load_attention(unet: UNet2DConditionModel, path: Path) -> int:
    """CatVTON's self-attention weights over the UNet's. Every self-attention parameter must be
    covered (the file may name a shared tensor once), nothing may be left over."""
    modules = attention_modules(unet)
    state = load_file(str(path))
    missing, unexpected = modules.load_state_dict(state, strict=False)
    if unexpected:
        raise WeightsError(f"{path.name} holds weights the try-on UNet does not have: "
                           f"{sorted(unexpected)[:5]}")
    named = dict(modules.named_parameters(remove_duplicate=False))
    loaded = {id(named[key]) for key in state if key in named}
    uncovered = sorted(key for key in missing
                       if key in named and id(named[key]) not in loaded)
    if uncovered:
        raise WeightsError(f"{path.name} lacks self-attention weights: {uncovered[:5]}")
    return len(state)


def _to_tensor(images: Sequence[Image8], device: torch.device, dtype: torch.dtype) -> torch.Tensor:
    """uint8 HxWx3 images → a (B, 3, H, W) batch in [-1, 1]."""
    array = np.stack([np.asarray(image, np.uint8) for image in images])
    batch = torch.from_numpy(array).permute(0, 3, 1, 2).to(device=device, dtype=torch.float32)
    return (batch / 127.5 - 1.0).to(dtype)


def _to_images(batch: torch.Tensor) -> list[Image8]:
    array = ((batch.float().clamp(-1, 1) + 1.0) * 127.5 + 0.5).clamp(0, 255)
    return list(array.to(torch.uint8).permute(0, 2, 3, 1).cpu().numpy())


def _noise(jobs: Sequence[Job], shape: tuple[int, ...], device: torch.device,
           dtype: torch.dtype) -> torch.Tensor:
    """Each job's starting noise from its own seed (on the CPU, so a seed gives the same noise on
    any device and in any batch)."""
    return torch.cat([
        torch.randn((1, *shape), generator=torch.Generator("cpu").manual_seed(job.seed))
        for job in jobs
    ]).to(device=device, dtype=dtype)


@dataclass
class LoadReport:
    device: str
    dtype: str
    parameters: int
    seconds: float
    memory_bytes: int

    def line(self) -> str:
        return (f"diffusion models loaded on {self.device} ({self.dtype}): "
                f"{self.parameters / 1e6:.1f} M parameters, {self.memory_bytes / 2**20:.0f} MiB, "
                f"{self.seconds:.1f} s")


def pick_device(name: str) -> torch.device:
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return torch.device(name)


def pick_dtype(name: str, device: torch.device) -> torch.dtype:
    if name == "auto":
        # bf16 on a GPU (SD1.5's VAE overflows in fp16); the CPU computes in float32.
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    return {"float32": torch.float32, "float16": torch.float16,
            "bfloat16": torch.bfloat16}[name]


def _out_of_memory(error: BaseException) -> bool:
    return isinstance(error, torch.cuda.OutOfMemoryError) or (
        isinstance(error, RuntimeError) and "out of memory" in str(error).lower())


class Models:
    """The loaded models, one copy per process (per GPU)."""

    def __init__(self, root: Path, device: str = "auto", dtype: str = "auto",
                 compile_unets: bool = False, tryon: str = "fashn") -> None:
        started = time.monotonic()
        self.device = pick_device(device)
        self.dtype = pick_dtype(dtype, self.device)

        def unet(folder: str) -> UNet2DConditionModel:
            model = UNet2DConditionModel.from_pretrained(root / folder, torch_dtype=self.dtype)
            if model.config.in_channels != IN_CHANNELS[folder]:
                raise WeightsError(f"{folder} has {model.config.in_channels} input channels, "
                                   f"not {IN_CHANNELS[folder]}")
            return model

        def vae(folder: str) -> AutoencoderKL:
            return AutoencoderKL.from_pretrained(root / folder, torch_dtype=self.dtype)

        # The try-on model: FASHN's (Apache-2.0) unless CatVTON's (non-commercial) is asked for
        # (DIFFUSION_TRYON=catvton); only the chosen one is loaded.
        if tryon not in TRYON_MODELS:
            raise ValueError(f"DIFFUSION_TRYON {tryon!r} is not one of {', '.join(TRYON_MODELS)}")
        self.tryon = tryon
        self.tryon_unet: UNet2DConditionModel | None = None
        self.tryon_vae: AutoencoderKL | None = None
        self.fashn: TryOnRunner | None = None
        modules: list[torch.nn.Module] = []
        if tryon == "catvton":
            self.tryon_unet = unet("tryon/unet")
            load_attention(self.tryon_unet, root / "tryon/attention/model.safetensors")
            self.tryon_unet.set_attn_processor({
                name: SkipAttention() if name.endswith("attn2.processor") else AttnProcessor2_0()
                for name in self.tryon_unet.attn_processors})
            self.tryon_vae = vae("tryon/vae")
            modules += [self.tryon_unet, self.tryon_vae]
        else:
            self.fashn = TryOnRunner.from_file(root / FASHN_WEIGHTS, self.device, self.dtype)
            modules.append(self.fashn.model)
        self.relight_unet = unet("relight/unet")
        self.relight_unet.set_attn_processor(AttnProcessor2_0())
        self.relight_vae = vae("relight/vae")
        tokenizer = CLIPTokenizer.from_pretrained(root / "relight/tokenizer")
        text_encoder = CLIPTextModel.from_pretrained(root / "relight/text_encoder",
                                                     torch_dtype=self.dtype)
        modules += [self.relight_unet, self.relight_vae, text_encoder]
        for module in modules:
            module.to(self.device).eval().requires_grad_(False)
        # The prompt never changes: encoded once, the text encoder is not kept.
        with torch.inference_mode():
            self.relight_prompt = self._encode(tokenizer, text_encoder, RELIGHT_PROMPT)
            self.relight_negative = self._encode(tokenizer, text_encoder, RELIGHT_NEGATIVE)
        parameters = sum(p.numel() for m in modules for p in m.parameters())
        self.kept = modules[:-1]  # all but the text encoder, let go below
        del text_encoder
        gc.collect()
        if compile_unets:
            if self.tryon_unet is not None:
                self.tryon_unet = torch.compile(self.tryon_unet)
            self.relight_unet = torch.compile(self.relight_unet)
        self.relight_factor = 2 ** (len(self.relight_vae.config.block_out_channels) - 1)
        self.report = LoadReport(str(self.device), str(self.dtype).removeprefix("torch."),
                                 parameters, time.monotonic() - started, self.memory_bytes())

    def memory_bytes(self) -> int:
        if self.device.type == "cuda":
            return int(torch.cuda.memory_allocated(self.device))
        return int(sum(p.numel() * p.element_size()
                   for m in self.kept for p in m.parameters()))

    def peak_memory_bytes(self) -> int:
        if self.device.type == "cuda":
            return int(torch.cuda.max_memory_allocated(self.device))
        return self.memory_bytes()

    def reset_peak_memory(self) -> None:
        """Start a new peak (the bench reads one per batch size)."""
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)

    def _encode(self, tokenizer: CLIPTokenizer, encoder: CLIPTextModel, text: str) -> torch.Tensor:
        ids = tokenizer(text, padding="max_length", max_length=tokenizer.model_max_length,
                        truncation=True, return_tensors="pt").input_ids.to(self.device)
        return encoder(ids)[0]

    def multiple(self) -> int:
        """Working sizes must divide by this: the VAEs' factor times the UNets' downsampling
        (FASHN's try-on works at its own native size, whatever DIFFUSION_SIZE is)."""
        factors = [(self.relight_factor, self.relight_unet)]
        if self.tryon_vae is not None and self.tryon_unet is not None:
            factors.append((2 ** (len(self.tryon_vae.config.block_out_channels) - 1),
                            self.tryon_unet))
        return max(int(factor * 2 ** (len(unet.config.block_out_channels) - 1))
                   for factor, unet in factors)

    # -----------------------------------------------------------------------------------------

    def _latents(self, vae: AutoencoderKL, images: torch.Tensor) -> torch.Tensor:
        return vae.encode(images).latent_dist.mode() * vae.config.scaling_factor

    def _decode(self, vae: AutoencoderKL, latents: torch.Tensor) -> list[Image8]:
        return _to_images(vae.decode(latents / vae.config.scaling_factor).sample)

    @staticmethod
    def _scheduler(steps: int) -> DPMSolverMultistepScheduler:
        scheduler = DPMSolverMultistepScheduler(**SCHEDULE)
        scheduler.set_timesteps(steps)
        return scheduler

    def run(self, jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Image8]:
        """One batch of one operation ("fashn", "tryon" (CatVTON) or "relight"): the images at
        the working size (FASHN's: at its native size)."""
        operation = jobs[0].payload["operation"]
        try:
            with torch.inference_mode():
                if operation == FASHN_OPERATION:
                    if self.fashn is None:
                        raise ValueError("FASHN's try-on is not loaded (DIFFUSION_TRYON)")
                    return run_fashn(self.fashn, jobs, on_step)
                if operation == "tryon":
                    return self._tryon(jobs, on_step)
                return self._relight(jobs, on_step)
        except BaseException as error:
            if _out_of_memory(error):
                if self.device.type == "cuda":
                    torch.cuda.empty_cache()
                raise OutOfMemory(str(error)) from None
            raise

    def _denoise(self, unet: UNet2DConditionModel, jobs: Sequence[Job],
                 shape: tuple[int, ...], extra: torch.Tensor, prompts: torch.Tensor | None,
                 guidance: float, on_step: Callable[[int], None]) -> torch.Tensor:
        """The denoising loop both models share: each job's own noise, then per step one UNet
        pass over [unconditioned; conditioned] (the noisy latent with the `extra` channels
        concatenated), classifier-free guidance, and a DPM-Solver++ step; each step reported."""
        scheduler = self._scheduler(jobs[0].steps)
        latents = _noise(jobs, shape, self.device, self.dtype) * scheduler.init_noise_sigma
        for index, t in enumerate(scheduler.timesteps):
            doubled = scheduler.scale_model_input(torch.cat([latents, latents]), t)
            predicted = unet(torch.cat([doubled, extra], dim=1), t,
                             encoder_hidden_states=prompts, return_dict=False)[0]
            free, guided = predicted.chunk(2)
            noise = free + guidance * (guided - free)
            latents = scheduler.step(noise, t, latents, return_dict=False)[0]
            on_step(index + 1)
        return latents

    def _tryon(self, jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Image8]:
        if self.tryon_unet is None or self.tryon_vae is None:
            raise ValueError("CatVTON's try-on is not loaded (DIFFUSION_TRYON=catvton loads it)")
        device, dtype = self.device, self.dtype
        person = _to_tensor([job.payload["person"] for job in jobs], device, dtype)
        garment = _to_tensor([job.payload["garment"] for job in jobs], device, dtype)
        masks: list[BoolMask] = [job.payload["mask"] for job in jobs]
        mask = torch.from_numpy(np.stack(masks)[:, None].astype(np.float32)).to(device, dtype)
        masked = person * (mask < 0.5)
        masked_latent = self._latents(self.tryon_vae, masked)
        garment_latent = self._latents(self.tryon_vae, garment)
        width = masked_latent.shape[-1]
        mask_latent = torch.nn.functional.interpolate(mask, size=masked_latent.shape[-2:],
                                                      mode="nearest")
        # Side by side: [person | garment]; the garment half is never masked.
        cond = torch.cat([masked_latent, garment_latent], dim=-1)
        uncond = torch.cat([masked_latent, torch.zeros_like(garment_latent)], dim=-1)
        mask_cat = torch.cat([mask_latent, torch.zeros_like(mask_latent)], dim=-1)
        extra = torch.cat([torch.cat([mask_cat, mask_cat]), torch.cat([uncond, cond])], dim=1)
        latents = self._denoise(self.tryon_unet, jobs, tuple(cond.shape[1:]), extra, None,
                                TRYON_GUIDANCE, on_step)
        return self._decode(self.tryon_vae, latents[..., :width])

    def _relight(self, jobs: Sequence[Job], on_step: Callable[[int], None]) -> list[Image8]:
        device, dtype = self.device, self.dtype
        subject = _to_tensor([job.payload["subject"] for job in jobs], device, dtype)
        scene = _to_tensor([job.payload["scene"] for job in jobs], device, dtype)
        conditions = torch.cat([self._latents(self.relight_vae, subject),
                                self._latents(self.relight_vae, scene)], dim=1)
        count = len(jobs)
        prompts = torch.cat([self.relight_negative.expand(count, -1, -1),
                             self.relight_prompt.expand(count, -1, -1)])
        latents = self._denoise(self.relight_unet, jobs, (4, *conditions.shape[-2:]),
                                torch.cat([conditions, conditions]), prompts, RELIGHT_GUIDANCE,
                                on_step)
        return self._decode(self.relight_vae, latents)


__all__ = ["LoadReport", "Models", "attention_modules", "load_attention"]
