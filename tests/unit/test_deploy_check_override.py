"""ops/deploy/compose.check.yml (the deploy check's override) keeps to its word: every
third-party service of docker-compose.yml is swapped for a labelled stand-in whose command the
stand-in image knows, and our own services keep their production commands and settings, but
for the few the override names. `make deploy-check` runs it for real (ops/deploy/check.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
STANDIN = "localhost/metamodel-standins:latest"
# The only settings the check changes on our services, each explained in the override.
CHECK_SETTINGS = {"IMAGING_HEARTBEAT_TIMEOUT_SECONDS", "FREE_GUESTS_PER_ADDRESS_PER_DAY",
                  "GUESTS_PER_ADDRESS_PER_DAY"}


def services(path: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = yaml.safe_load((REPO / path).read_text())["services"]
    return found


def entrypoint_commands() -> set[str]:
    """The commands ops/deploy/standins/entrypoint.sh dispatches on (its case labels)."""
    text = (REPO / "ops/deploy/standins/entrypoint.sh").read_text()
    return set(re.findall(r"^([a-z0-9-]+)\)$", text, flags=re.MULTILINE))


def test_every_third_party_service_gets_a_labelled_stand_in() -> None:
    production, override = services("docker-compose.yml"), services(
        "ops/deploy/compose.check.yml")
    third_party = {name for name, s in production.items() if "build" not in s}
    assert {"postgres", "temporal", "minio", "prometheus", "jaeger"} <= third_party
    for name in third_party:
        standin = override.get(name)
        assert standin is not None, f"{name} has no stand-in in compose.check.yml"
        assert standin["image"] == STANDIN
        assert standin["labels"]["io.metamodel.standin"] == "true"
        command = standin["command"][0]
        assert command in entrypoint_commands() | {"prometheus"}, (name, command)


def test_our_services_run_as_in_production() -> None:
    production, override = services("docker-compose.yml"), services(
        "ops/deploy/compose.check.yml")
    ours = {name for name, s in production.items() if "build" in s and not s.get("profiles")}
    assert {"migrate", "api", "worker", "imaging", "web"} <= ours
    for name in ours:
        changes = override[name]
        assert set(changes) <= {"image", "environment"}, (name, set(changes))
        assert changes["image"].startswith("${METAMODEL_")
        assert set(changes.get("environment", {})) <= CHECK_SETTINGS, name
        assert production[name].get("environment", {}).get("ENVIRONMENT", "production") == (
            "production")
