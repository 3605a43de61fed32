"""The bench's targets (ops/bench/run.py prints each figure beside its own): the figure's key,
its limit (None: reported only) and which side of it is met.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    name: str
    key: str
    limit: float | None  # None: reported, no target
    at_most: bool = True

    def verdict(self, value: float | None) -> str:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return "n/a"
        if self.limit is None:
            return "report"
        ok = value <= self.limit if self.at_most else value >= self.limit
        return "met" if ok else "short"

    def target_text(self) -> str:
        if self.limit is None:
            return "(report)"
        return f"{'<=' if self.at_most else '>='} {self.limit:g}"


# Issue 21 took the three figures that sit below fixed costs off the targets (single <= 1.2x,
# <= 12 P per generation, <= 5 P per image): they are reported, and beside them as multiples of
# the floor this bench measures (Temporal alone plus the image I/O, one P per image).
TARGETS = (
    Target("single e2e / engine p50, background replace", "single_ratio_burstreplace", None),
    Target("single e2e / engine p50, model swap", "single_ratio_bodySwap", None),
    Target("single: overhead / floor, background replace", "single_overhead_floors_burstreplace",
           None),
    Target("single: overhead / floor, model swap", "single_overhead_floors_bodySwap", None),
    Target("burst of 50: control-plane CPU per generation / P", "burst_cpu_per_generation_P", None),
    Target("burst of 50: same / floor", "burst_cpu_per_generation_floors", None),
    Target("20-image request: control-plane CPU per image / P", "images20_cpu_per_image_P", None),
    Target("20-image request: same / floor", "images20_cpu_per_image_floors", None),
    Target("no-op engine: sustained generations/s", "noop_generations_per_s", None),
    Target("no-op engine: failures", "noop_failures", 0),
    Target("no-op engine: p95 submit->completed / single p50", "noop_p95_over_single_p50", 3),
    Target("no-op engine, 2 clients: generations/s", "noop_few_generations_per_s", None),
    Target("no-op engine, 2 clients: failures", "noop_few_failures", 0),
    Target("no-op engine, 2 clients: p95 / single p50", "noop_few_p95_over_single_p50", 3),
    Target("1,000 long polls: change-to-answer p95 (ms)", "longpoll_delay_p95_ms", 50),
    Target("1,000 long polls: API RSS (MB)", "longpoll_api_rss_mb", 300),
    Target("pollTasks req/s / bare FastAPI req/s", "poll_rps_ratio", 0.5, at_most=False),
    Target("scale out: images rendered twice", "scale_rendered_twice", 0),
    Target("floor: Temporal alone, start->result p50 (ms)", "floor_single_p50_ms", None),
    Target(
        "floor: same, workers in-process (ms)", "floor_in_process_single_p50_ms", None
    ),
    Target("floor: overhead 1.2x allows, bg replace (ms)", "single_allowed_ms_burstreplace", None),
    Target("floor: overhead 1.2x allows, model swap (ms)", "single_allowed_ms_bodySwap", None),
    Target("floor: Temporal alone, CPU per workflow / P", "floor_cpu_per_workflow_P", None),
    Target("scale out: generations charged twice", "scale_doubled_charges", 0),
)
