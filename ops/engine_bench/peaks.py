"""Accelerators' dense bf16 peaks, and the share of it a measured run reaches (issue 35 section 4:
the sampler at >= 50 % of the peak at its best batch). Plain Python: no torch.

The peaks are the vendors' datasheet figures for dense (not 2:4 sparse) bf16 tensor-core math,
in TFLOP/s. A device whose name matches none of them gets no share: the bench prints the FLOP/s
it reached and says the peak is unknown, never a guess.
"""

from __future__ import annotations

# (substrings of torch.cuda.get_device_name, all of which must appear; lower case) -> TFLOP/s.
# More specific entries first: "h100 pcie" before "h100".
DENSE_BF16_TFLOPS: tuple[tuple[tuple[str, ...], float], ...] = (
    (("h100", "pcie"), 756.0),
    (("h100", "nvl"), 835.0),
    (("h100",), 989.0),  # SXM (HBM3)
    (("h200",), 989.0),
    (("h800",), 989.0),
    (("gh200",), 989.0),
    (("b200",), 2250.0),
    (("a100",), 312.0),
    (("a800",), 312.0),
    (("l40s",), 362.0),
    (("l40",), 181.0),
    (("l4",), 121.0),
    (("a10g",), 70.0),
    (("a10",), 125.0),
    (("rtx 4090",), 165.0),
)


def dense_bf16_peak(device_name: str) -> float | None:
    """The device's dense bf16 peak in FLOP/s, or None if the table does not know it."""
    name = device_name.lower()
    for needles, tflops in DENSE_BF16_TFLOPS:
        if all(needle in name for needle in needles):
            return tflops * 1e12
    return None


def achieved(flops: float, seconds: float) -> float:
    """FLOP/s: `flops` of work done in `seconds`."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, got {seconds}")
    return flops / seconds


def share_of_peak(flops: float, seconds: float, peak: float | None) -> float | None:
    """The fraction of `peak` (FLOP/s) reached; None where the peak is unknown."""
    if peak is None:
        return None
    return achieved(flops, seconds) / peak


def describe(rate: float, share: float | None) -> str:
    """'412.3 TFLOP/s, 41.7 % of the dense bf16 peak' (or '... peak unknown')."""
    text = f"{rate / 1e12:.1f} TFLOP/s" if rate >= 1e12 else f"{rate / 1e9:.2f} GFLOP/s"
    if share is None:
        return f"{text} (peak unknown for this device)"
    return f"{text}, {100 * share:.1f} % of the dense bf16 peak"


__all__ = ["DENSE_BF16_TFLOPS", "achieved", "dense_bf16_peak", "describe",
           "share_of_peak"]
