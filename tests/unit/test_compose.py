"""docker-compose.yml cannot be started here (no Docker engine); keep it honest by reading it."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from core.settings import Settings

REPO = Path(__file__).resolve().parents[2]
# Read by the OpenTelemetry SDK itself, not by our Settings.
NOT_SETTINGS = {"PYTHONUNBUFFERED", "OTEL_EXPORTER_OTLP_ENDPOINT"}


# What an operator would put in the .env beside the compose file.
OPERATOR_ENV = {"JWT_SECRET": "j" * 48, "CODE_SECRET": "c" * 48, "S3_SECRET_KEY": "s" * 40,
                "PAYMENT_WEBHOOK_SECRET": "w" * 40, "C2PA_DIR": "/srv/metamodel/c2pa"}


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose's substitutions: ${VAR:?message} (a missing variable is an error) and
    ${VAR:-default}."""

    def required(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in env:
            raise KeyError(f"{name} is required: {match.group(2)}")
        return env[name]

    def defaulted(match: re.Match[str]) -> str:
        return env.get(match.group(1)) or match.group(2)

    text = re.sub(r"\$\{(\w+):\?([^}]*)\}", required, text)
    return re.sub(r"\$\{(\w+):-([^}]*)\}", defaulted, text)


def settings_from(env: dict[str, str]) -> Settings:
    """Settings as the container would read them: from its environment variables."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, str(value))
        return Settings(_env_file=None)  # type: ignore[call-arg]


def load(env: dict[str, str] | None = None) -> dict:
    text = (REPO / "docker-compose.yml").read_text()
    return yaml.safe_load(interpolate(text, OPERATOR_ENV if env is None else env))


def test_secrets_must_be_supplied_and_production_accepts_them() -> None:
    for missing in OPERATOR_ENV:
        with pytest.raises(KeyError, match=missing):
            load({k: v for k, v in OPERATOR_ENV.items() if k != missing})
    env = load()["services"]["api"]["environment"]
    assert env["ENVIRONMENT"] == "production"
    settings = settings_from(env)
    assert settings.jwt_secret == OPERATOR_ENV["JWT_SECRET"]


def test_every_app_container_signs_with_the_mounted_chain() -> None:
    """Production refuses to start without the Content Credentials chain: every service that
    runs our code gets the settings and the folder they point into."""
    services = load()["services"]
    for name in ("migrate", "api", "worker", "imaging", "imaging-gpu"):
        service = services[name]
        settings = settings_from(service["environment"])
        assert settings.c2pa_cert_chain_file is not None, name
        mounts = {v.split(":")[1]: v.split(":")[0] for v in service["volumes"]}
        assert mounts.get("/run/secrets/c2pa") == OPERATOR_ENV["C2PA_DIR"], name
        assert str(settings.c2pa_cert_chain_file).startswith("/run/secrets/c2pa/"), name
        assert str(settings.c2pa_private_key_file).startswith("/run/secrets/c2pa/"), name


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
        settings = settings_from(env)
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
    # nginx forwards every API route to the api service, looked up per request (a variable),
    # so it starts before the api container and follows it when it is recreated.
    nginx = (REPO / "ops/docker/nginx.conf").read_text()
    assert "set $api http://api:8000;" in nginx
    proxied = re.findall(r"proxy_pass ([^;]+);", nginx)
    assert proxied and set(proxied) == {"$api"}, proxied


def test_stripe_in_production_needs_both_stripe_secrets() -> None:
    def api_env(extra: dict[str, str]) -> dict[str, str]:
        env: dict[str, str] = load({**OPERATOR_ENV, **extra})["services"]["api"]["environment"]
        return env

    assert settings_from(api_env({})).payment_provider == "local"
    with pytest.raises(ValueError, match="STRIPE"):
        settings_from(api_env({"PAYMENT_PROVIDER": "stripe"}))
    stripe = settings_from(api_env({"PAYMENT_PROVIDER": "stripe",
                                    "STRIPE_SECRET_KEY": "sk_live_" + "k" * 24,
                                    "STRIPE_WEBHOOK_SECRET": "whsec_" + "w" * 32}))
    assert stripe.payment_provider == "stripe"


def test_traces_flow_from_the_app_to_the_collector_to_jaeger() -> None:
    services = load()["services"]
    for name in ("api", "worker", "imaging"):
        env = services[name]["environment"]
        assert settings_from(env).otel_exporter == "otlp"
        assert host(env["OTEL_EXPORTER_OTLP_ENDPOINT"]) in services
    collector = services["otel-collector"]
    mount = next(v for v in collector["volumes"] if v.endswith(":/etc/otelcol/config.yaml:ro"))
    config = yaml.safe_load((REPO / mount.split(":")[0]).read_text())
    exporter = config["exporters"]["otlp/jaeger"]["endpoint"]
    assert host(exporter) in services
    assert config["service"]["pipelines"]["traces"]["exporters"] == ["otlp/jaeger"]
    assert "http" in config["receivers"]["otlp"]["protocols"]
    assert services["jaeger"]["environment"]["COLLECTOR_OTLP_ENABLED"] == "true"
