"""docker-compose.yml cannot be started here (no Docker engine); keep it honest by reading it."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import yaml

from core.settings import Settings

REPO = Path(__file__).resolve().parent.parent
NOT_SETTINGS = {"PYTHONUNBUFFERED"}


def load() -> dict:
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())


def host(value: str) -> str:
    return urlsplit(value if "://" in value else f"//{value}").hostname or ""


def test_every_service_the_settings_point_to_exists() -> None:
    compose = load()
    services = compose["services"]
    assert {"postgres", "temporal", "temporal-ui", "minio", "migrate", "api", "worker",
            "imaging", "web"} <= set(services)
    for name in ("api", "worker", "imaging", "migrate"):
        env = services[name]["environment"]
        assert host(env["DATABASE_URL"]) in services
        assert host(env["TEMPORAL_ADDRESS"]) in services
        assert host(env["S3_ENDPOINT"]) in services
        settings = Settings(_env_file=None, **{k.lower(): v for k, v in env.items()})
        assert settings.resolved_database_url.startswith("postgresql+psycopg://")
        # Every variable is a real setting: a typo would silently fall back to a default.
        unknown = {k for k in env if k.lower() not in Settings.model_fields} - NOT_SETTINGS
        assert not unknown, f"{name}: not settings: {unknown}"
    assert services["temporal-ui"]["environment"]["TEMPORAL_ADDRESS"].split(":")[0] in services


def test_dependencies_commands_and_build_files_exist() -> None:
    compose = load()
    services = compose["services"]
    for name, service in services.items():
        for dependency in service.get("depends_on", []):
            assert dependency in services, f"{name} depends on missing {dependency}"
        build = service.get("build")
        if build:
            assert (REPO / build["context"] / build["dockerfile"]).is_file()
    for name in ("migrate", "worker", "imaging"):
        command = services[name]["command"]
        module = command[command.index("-m") + 1] if "-m" in command else command[-1]
        assert (REPO / (module.replace(".", "/") + ".py")).is_file(), module
    assert services["worker"]["command"][-1] == "orchestration"
    assert services["imaging"]["command"][-1] == "imaging"
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert services["api"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully")
    nginx = (REPO / "ops/docker/nginx.conf").read_text()
    assert "proxy_pass http://api:8000" in nginx
