"""What a generation costs: used by the cost endpoints, the 402 check and the workflow."""

from __future__ import annotations

from core.enums import GenerationKind

# Credits per input image. A model swap includes its optional background.
PRICE_PER_IMAGE = {GenerationKind.BODY_SWAP: 1, GenerationKind.BURST_REPLACE: 1}


def generation_cost(service: str, input_count: int) -> int:
    if service not in PRICE_PER_IMAGE:
        raise ValueError(f"unknown service {service!r}")
    return PRICE_PER_IMAGE[GenerationKind(service)] * input_count


def task_share(total: int, task_count: int) -> int:
    """Each task's share of a generation's charge (what a failed task refunds)."""
    return total // task_count if task_count else 0
