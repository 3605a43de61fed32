"""The FASHN settings the bench measures (issue 35 section 4), each against the reference.

Two groups: what should keep the output (attention backends, compile, CUDA graphs: the same
arithmetic, other kernels; their distance from the reference is rounding) and the faster
settings, which change the arithmetic (FP8, fewer steps, guidance skipped on some steps) and
whose distance from the reference says what they cost. The product's default stays the reference
until someone has compared them on real weights.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.diffusion.fashn.config import TryOnConfig
from engine.diffusion.fashn.flops import forward_flops
from engine.diffusion.fashn.options import RunnerOptions
from engine.diffusion.fashn.sampler import REFERENCE, SamplerSettings

KEEPS = "keeps the output"
FASTER = "faster setting"


@dataclass(frozen=True)
class Setting:
    name: str
    what: str  # in words, for the report
    group: str = KEEPS
    sampler: SamplerSettings = REFERENCE
    options: RunnerOptions = field(default_factory=RunnerOptions)

    @property
    def transforms_model(self) -> bool:
        """Whether the setting needs its own copy of the model (converted or compiled)."""
        return self.options.fp8 or self.options.compile or self.options.cuda_graphs

    def flops_per_image(self, config: TryOnConfig) -> int:
        """The sampler's matrix FLOPs for one image: one forward pass per model pass."""
        return self.sampler.model_passes * forward_flops(config)


def _sampler(**changes: int) -> SamplerSettings:
    return replace(REFERENCE, **changes)


SETTINGS: tuple[Setting, ...] = (
    Setting("reference", "30 steps, guidance 1.5 (not on the last step), torch's attention choice"),
    Setting("sdpa-flash", "SDPA flash attention", options=RunnerOptions(attention="flash")),
    Setting("sdpa-efficient", "SDPA memory-efficient attention",
            options=RunnerOptions(attention="efficient")),
    Setting("sdpa-cudnn", "SDPA cuDNN attention", options=RunnerOptions(attention="cudnn")),
    Setting("sdpa-math", "SDPA math (unfused) attention", options=RunnerOptions(attention="math")),
    Setting("compile", "torch.compile of each block (inductor)",
            options=RunnerOptions(compile=True)),
    Setting("cuda-graphs", "torch.compile of each block, mode reduce-overhead (CUDA graphs)",
            options=RunnerOptions(cuda_graphs=True)),
    Setting("fp8", "float8 matmuls, dynamic per-row scales (torchao)", FASTER,
            options=RunnerOptions(fp8=True)),
    Setting("fp8-compile", "float8 matmuls (torchao) + torch.compile", FASTER,
            options=RunnerOptions(fp8=True, compile=True)),
    Setting("steps-20", "20 steps", FASTER, _sampler(steps=20)),
    Setting("steps-15", "15 steps", FASTER, _sampler(steps=15)),
    Setting("guidance-first-10", "guidance on the first 10 of 30 steps only", FASTER,
            _sampler(guided_first=10)),
    Setting("guidance-every-2", "guidance on every other step", FASTER,
            _sampler(guidance_every=2)),
    Setting("steps-20-guidance-first-8", "20 steps, guidance on the first 8 only", FASTER,
            _sampler(steps=20, guided_first=8)),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
# What a CPU run measures unless told otherwise: compiling the full model on two cores takes
# longer than the rest together, and the GPU-only settings report "needs a CUDA device" either way.
CPU_DEFAULT = ("reference", "sdpa-flash", "sdpa-math", "cuda-graphs", "fp8", "steps-20",
               "guidance-first-10", "guidance-every-2")


def pick(names: str, on_cuda: bool) -> list[Setting]:
    """Settings by comma-separated names, "all", or "" (all on a GPU, CPU_DEFAULT on a CPU);
    the reference always first (every other is compared with it)."""
    if names == "all" or (not names and on_cuda):
        chosen = [setting.name for setting in SETTINGS]
    elif not names:
        chosen = list(CPU_DEFAULT)
    else:
        chosen = [name.strip() for name in names.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in BY_NAME]
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(unknown)}; known: "
                         f"{', '.join(BY_NAME)}")
    ordered = ["reference"] + [name for name in dict.fromkeys(chosen) if name != "reference"]
    return [BY_NAME[name] for name in ordered]


__all__ = ["BY_NAME", "FASTER", "KEEPS", "SETTINGS", "Setting", "pick"]
