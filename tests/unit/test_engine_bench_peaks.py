"""The bench's share-of-peak arithmetic and its table of dense bf16 peaks (ops/engine_bench/
peaks.py): plain Python, no torch."""

from __future__ import annotations

import pytest

from ops.engine_bench.peaks import achieved, dense_bf16_peak, describe, share_of_peak


@pytest.mark.parametrize(("name", "tflops"), [
    ("NVIDIA H100 80GB HBM3", 989.0),
    ("NVIDIA H100 PCIe", 756.0),
    ("NVIDIA H100 NVL", 835.0),
    ("NVIDIA H200", 989.0),
    ("NVIDIA A100-SXM4-80GB", 312.0),
    ("NVIDIA A100 80GB PCIe", 312.0),
    ("NVIDIA L4", 121.0),
    ("NVIDIA L40S", 362.0),
    ("NVIDIA L40", 181.0),
    ("NVIDIA A10G", 70.0),
])
def test_the_table_knows_the_usual_cards(name: str, tflops: float) -> None:
    assert dense_bf16_peak(name) == tflops * 1e12


def test_an_unknown_device_has_no_peak_and_no_share() -> None:
    assert dense_bf16_peak("NVIDIA GeForce GTX 1080") is None
    assert dense_bf16_peak("CPU (x86_64, 2 threads)") is None
    assert share_of_peak(1e15, 1.0, None) is None
    assert describe(4.2e14, None) == "420.0 TFLOP/s (peak unknown for this device)"


def test_the_share_is_the_work_over_the_time_over_the_peak() -> None:
    # The arithmetic: 59 passes of 13.2 TFLOP in 1.56 s on an H100 is half its peak.
    flops = 59 * 13.2e12
    peak = dense_bf16_peak("NVIDIA H100 80GB HBM3")
    assert achieved(flops, 1.56) == pytest.approx(flops / 1.56)
    share = share_of_peak(flops, 1.56, peak)
    assert share == pytest.approx(flops / 1.56 / 989e12)
    assert 0.50 < share < 0.51  # type: ignore[operator]
    assert describe(achieved(flops, 1.56), share) == "499.2 TFLOP/s, 50.5 % of the dense bf16 peak"
    # Twice the images in twice the time is the same share; in the same time, twice the share.
    assert share_of_peak(2 * flops, 2 * 1.56, peak) == pytest.approx(share)
    assert share_of_peak(2 * flops, 1.56, peak) == pytest.approx(2 * share)  # type: ignore[operator]


def test_no_time_is_refused() -> None:
    with pytest.raises(ValueError, match="positive"):
        achieved(1e12, 0.0)


def test_a_small_rate_reads_in_gflops() -> None:
    assert describe(3.2e9, None) == "3.20 GFLOP/s (peak unknown for this device)"
