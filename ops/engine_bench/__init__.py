"""The generative engine's bench: `python -m ops.engine_bench` (ops/engine_bench/cli.py).

By default it measures FASHN's try-on (issue 35 section 4): the sampler setting by setting
(fashn.py, settings.py) with its FLOPs and share of the device's peak (peaks.py), and the whole
engine call (whole.py). `--tryon catvton` runs issue 21's bench of the SD1.5 models instead
(sd15.py: CatVTON's try-on and the relight), kept for the relight's figures and the
non-commercial switch.
"""

from __future__ import annotations

from ops.engine_bench.common import fixtures_dir

__all__ = ["fixtures_dir"]
