"""The deploy check's faults and what they leave (ops/deploy/check.py): containers killed and
recovered, Temporal's histories of the retries, and the ledger's audit.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from ops.deploy.guests import Generation
from ops.deploy.shell import CheckFailed, Compose, Figures, podman, wait_until

# --- kills ------------------------------------------------------------------------------------


def kill_and_recover(compose: Compose, container: str, figures: Figures, name: str) -> None:
    """`podman kill` (SIGKILL, a crash); then whatever podman's restart policy does within
    5 s, else `podman start` as a supervisor (systemd unit, the orchestrator) would. (Podman
    counts `podman kill` as stopped by the user, as `docker kill`: `unless-stopped` restarts a
    container whose process dies by itself, not a killed one.)"""
    podman("kill", container)
    killed_at = time.monotonic()
    restarted_by_policy = False
    while time.monotonic() - killed_at < 5:
        state = podman("inspect", "--format", "{{.State.Status}}", container, check=False)
        if state == "running":
            restarted_by_policy = True
            break
        time.sleep(0.5)
    if not restarted_by_policy:
        podman("start", container)
    figures.put(f"{name}_restarted_by", "podman restart policy" if restarted_by_policy
                else "podman start (policy did not restart a killed container)")


def crash_and_wait_for_policy(container: str, figures: Figures) -> None:
    pid = podman("inspect", "--format", "{{.State.Pid}}", container)
    restarts = int(podman("inspect", "--format", "{{.RestartCount}}", container))
    os.kill(int(pid), 9)
    crashed_at = time.monotonic()
    wait_until(f"{container} restarted by its restart policy", lambda: int(podman(
        "inspect", "--format", "{{.RestartCount}}", container)) > restarts, 30)
    figures.put("api_crash_restarted_by_policy_s", round(time.monotonic() - crashed_at, 1))


def in_full_swing(generations: list[Generation]) -> bool:
    """Images of these generations are being rendered and many are still waiting: every
    imaging container holds renders now (each takes IMAGING_CONCURRENCY, 2, at a time)."""
    statuses = [t["status"] for g in generations
                for t in g.guest.service(g.generation_id)["tasks"]]
    return "running" in statuses and statuses.count("queued") >= 12


def temporal(compose: Compose, *args: str) -> Any:
    """The Temporal CLI in the temporal container, its JSON answer."""
    (server,) = compose.containers("temporal")
    return json.loads(podman("exec", server, "temporal", *args, "--address", "localhost:7233",
                             "-o", "json"))


def history_figures(compose: Compose, generations: list[Generation]) -> dict[str, int]:
    """From the generations' Temporal histories (the workflow id is the generation's id): how
    many renders started again after a failed attempt (a killed imaging container's, once
    their heartbeat was missed), and how many workflow tasks timed out (those a killed
    orchestration worker held, taken up by the other)."""
    renders_retried = workflow_tasks_timed_out = 0
    for g in generations:
        events = temporal(compose, "workflow", "show", "-w", g.generation_id)["events"]
        for event in events:
            started = event.get("activityTaskStartedEventAttributes")
            if started and int(started.get("attempt", 1)) > 1:
                renders_retried += 1
            if "workflowTaskTimedOutEventAttributes" in event:
                workflow_tasks_timed_out += 1
    return {"renders_retried": renders_retried,
            "workflow_tasks_timed_out": workflow_tasks_timed_out}


def audit(compose: Compose, generations: list[Generation]) -> dict[str, Any]:
    (api,) = compose.containers("api")
    out = podman("exec", api, "python", "-m", "ops.ledger_audit",
                 *[g.generation_id for g in generations])
    report: dict[str, Any] = json.loads(out.splitlines()[-1])
    # One credit an image: each charged once, for all its images, nothing refunded.
    images = {g.generation_id: g.images for g in generations}
    wrong = {
        gid: entry for gid, entry in report["generations"].items()
        if (entry["charges"], entry["charged_credits"], entry["refunds"]) != (1, images[gid], 0)
    }
    if wrong:
        raise CheckFailed(f"generations not charged exactly once: {wrong}")
    if not report["reconciliation"]["clean"]:
        raise CheckFailed(f"reconciliation found mismatches: {report['reconciliation']}")
    return report
