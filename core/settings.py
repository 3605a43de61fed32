"""One settings class for every process, read from the environment or `.env`.

The defaults are the embedded stack of `make run`: everything on 127.0.0.1, all state under
./data. PostgreSQL, MinIO and a remote Temporal are only a change of these settings away.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # Where the embedded stack keeps its state (database, Temporal's SQLite file, objects).
    data_dir: Path = Path("data")

    app_host: str = "127.0.0.1"
    app_port: int = 8000
    # The origin the browser uses; storage must allow it for direct uploads (CORS).
    public_app_url: str | None = None

    # Empty means the SQLite file data/app.db.
    database_url: str = ""

    temporal_address: str = "127.0.0.1:7233"
    temporal_namespace: str = "default"
    temporal_ui_port: int = 8233
    task_queue: str = "generation"
    imaging_task_queue: str = "imaging"

    # S3 API (rclone serve s3 embedded, MinIO in compose).
    s3_endpoint: str = "127.0.0.1:9000"
    # The host:port the browser reaches storage at; presigned URLs are signed for it.
    s3_public_endpoint: str = ""
    s3_access_key: str = "metamodel"
    s3_secret_key: str = "metamodel-secret-key"
    s3_secure: bool = False
    s3_region: str = "us-east-1"
    s3_bucket: str = "metamodel"

    # Signing key for access tokens. Empty: a random key kept in data_dir/jwt-secret.
    jwt_secret: str = ""
    guest_token_ttl_seconds: int = 30 * 24 * 3600
    default_distributor_id: str = "metamodel"
    guest_free_credits: int = 5

    # Accounts: short-lived access tokens, renewed with a refresh token kept in a cookie.
    access_token_ttl_seconds: int = 3600
    refresh_token_ttl_seconds: int = 30 * 24 * 3600
    signup_free_credits: int = 10
    # Google's user-info endpoint; tests point it at a local server speaking the same protocol.
    google_userinfo_url: str = "https://openidconnect.googleapis.com/v1/userinfo"
    # Outgoing mail. Without SMTP_HOST, mail is written to the log and kept in the outbox.
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_from: str = "MetaModel <no-reply@metamodel.local>"
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    # Set false only where the app is served over plain http to non-local hosts.
    secure_cookies: bool = True

    # Upload limits, checked on submit and again by the workflow.
    max_upload_bytes: int = 20 * 1024 * 1024
    max_megapixels: float = 40.0

    # "cpu" (built-in engine) or "remote" (GPU inference service at engine_url).
    engine: str = "cpu"
    engine_url: str = ""
    engine_timeout_seconds: float = 300.0
    # Threads that run engine work in the worker; CPU-bound, so about one per core.
    imaging_concurrency: int = 2
    imaging_heartbeat_timeout_seconds: float = 30.0

    # Observability: "console", "otlp" (OTEL_EXPORTER_OTLP_ENDPOINT) or "none".
    otel_exporter: str = "none"
    sentry_dsn: str = ""

    log_level: str = "INFO"

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'app.db').resolve()}"

    @property
    def resolved_public_s3_endpoint(self) -> str:
        return self.s3_public_endpoint or self.s3_endpoint

    @property
    def app_url(self) -> str:
        return self.public_app_url or f"http://{self.app_host}:{self.app_port}"

    def resolved_jwt_secret(self) -> str:
        """The configured secret, or one generated once and kept beside the data."""
        if self.jwt_secret:
            return self.jwt_secret
        path = self.data_dir / "jwt-secret"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip()


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once (not at import time)."""
    return Settings()
