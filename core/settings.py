"""One settings class for every process, read from the environment or `.env`.

The defaults are the embedded stack of `make run`: everything on 127.0.0.1, all state under
./data. PostgreSQL, MinIO and a remote Temporal are only a change of these settings away.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# A GSTIN's form (core/gst.py checks the check character too), or nothing.
_GSTIN_OR_NOTHING = r"^([0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z])?$"

# Values that must never reach production: the defaults below and the compose file's
# placeholders (anything starting with "change-me").
_DEFAULT_S3_SECRET = "metamodel-secret-key"
# Signs the local test provider's webhooks (and, later, is the provider's own webhook secret).
_DEFAULT_WEBHOOK_SECRET = "whsec_metamodel_local_test_only"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    # "production" refuses to start with default or placeholder secrets (see _check_secrets).
    environment: Literal["development", "production"] = "development"

    # Where the embedded stack keeps its state (database, Temporal's SQLite file, objects).
    data_dir: Path = Path("data")

    app_host: str = "127.0.0.1"
    app_port: int = 8000
    # Connections (and requests in progress) one API process holds at once; beyond, 503. Each
    # costs at most its bounded head (api/http_limits.py); long polls hold one each.
    api_max_connections: int = 2048
    # A request head (request line and headers) not finished this long after its first byte
    # is dropped (api/http_limits.py; slowloris).
    api_head_timeout_seconds: float = 30.0
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
    s3_secret_key: str = _DEFAULT_S3_SECRET
    s3_secure: bool = False
    s3_region: str = "us-east-1"
    s3_bucket: str = "metamodel"

    # Signing key for access tokens. Empty: a random key kept in data_dir/jwt-secret.
    jwt_secret: str = ""
    # Key for the one-time codes' hashes, apart from the token key so that leaking one does not
    # give away the other. Empty: a random key kept in data_dir/code-secret.
    code_secret: str = ""

    # Sign-up codes mailed to any emails from one address in an hour (each email has its own 5):
    # enough for an office or a shop's shared connection, not for a script minting accounts.
    signup_codes_per_address_per_hour: int = 20

    # Content Credentials (C2PA, core/provenance): every delivered image is signed with this
    # chain (PEM: the signing certificate, then its CA) and key (PEM, unencrypted). Production
    # requires both; empty in development means a development chain kept in data_dir/c2pa,
    # which nobody else trusts. Earlier roots (after a rotation) may go in the anchors file, so
    # images signed before still verify as ours.
    c2pa_cert_chain_file: Path | None = None
    c2pa_private_key_file: Path | None = None
    c2pa_trust_anchors_file: Path | None = None
    guest_token_ttl_seconds: int = 30 * 24 * 3600
    default_distributor_id: str = "metamodel"
    guest_free_credits: int = 5
    # New guest browsers per address and day (more get 429), and how many of them get the free
    # credits (the rest start at 0): a shared office address still works, a script minting
    # credits does not.
    guests_per_address_per_day: int = 20
    free_guests_per_address_per_day: int = 3

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
    # Where the contact form's messages go.
    support_email: str = "support@metamodel.local"
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    # The mail relay (a Temporal schedule) sends what is due this often; a failed send waits
    # base, 2×base, 4×base… (capped) before the next try, and is given up after max attempts.
    mail_relay_interval_seconds: float = 5.0
    mail_retry_base_seconds: float = 15.0
    mail_retry_max_seconds: float = 1800.0
    mail_max_attempts: int = 10
    # Mail kept longer ago than this is never sent (it would be stale news by then).
    mail_max_age_hours: float = 24.0
    # Uploads no generation uses are deleted (with their thumbnails) once this old, by a
    # clean-up on a Temporal schedule.
    upload_retention_hours: float = 24.0
    upload_cleanup_interval_minutes: float = 60.0
    # A checkout left unpaid this long is expired (core/billing/orders.py): the provider's
    # checkout lifetime (Stripe's default, 24 h) and an hour for its late webhooks. Looked for
    # every CHECKOUT_EXPIRY_INTERVAL_SECONDS by a schedule (workflows/checkout_expiry.py).
    checkout_expiry_seconds: float = Field(default=90_000, gt=0)
    checkout_expiry_interval_seconds: float = Field(default=300, gt=0)
    # Set false only where the app is served over plain http to non-local hosts.
    secure_cookies: bool = True

    # API keys the image edit client must send as `x-api-key` on /imageedit calls; empty: no
    # check (the embedded default). A JSON list in the environment, e.g. '["k1","k2"]'.
    api_keys: list[str] = []
    # Requests per minute an account may make on the public API, all its keys, sessions and
    # guest tokens together (429 beyond). The name is older than that rule.
    api_key_requests_per_minute: int = Field(default=60, ge=1, le=100_000)
    # Webhooks (core/webhooks/endpoints.py). Endpoints on private, loopback or link-local
    # addresses are refused unless this is true; unset, it is true in development (a receiver on
    # localhost) and false in production, which refuses true outright. Checked again at every
    # connection.
    webhook_allow_private: bool | None = None
    # One delivery attempt's limit; then retries with exponential backoff from the first
    # interval up to the longest one, for the window; after the window the delivery is given up,
    # and an endpoint that has failed for a whole window is disabled and its owner mailed.
    webhook_timeout_seconds: float = Field(default=10.0, gt=0, le=60)
    webhook_retry_initial_seconds: float = Field(default=5.0, gt=0)
    webhook_retry_max_interval_seconds: float = Field(default=3600.0, gt=0)
    webhook_retry_window_seconds: float = Field(default=3 * 24 * 3600.0, gt=0)
    # How often the relay (a Temporal schedule) starts a delivery workflow for each new event.
    webhook_relay_interval_seconds: float = Field(default=2.0, gt=0)
    # Proxies whose X-Forwarded-For is believed (addresses or CIDR networks, a JSON list), e.g.
    # '["172.16.0.0/12"]' for nginx in compose. Empty: the TCP peer is the client.
    trusted_proxies: list[str] = []
    # The Temporal Web UI as operators reach it; admin pages link each generation there.
    temporal_ui_url: str = ""

    # Upload limits, checked on submit and again by the workflow.
    max_upload_bytes: int = 20 * 1024 * 1024
    # At most core.photos.images.MAX_MEGAPIXELS_LIMIT (Pillow's bomb guard sits just above that).
    max_megapixels: float = Field(default=40.0, gt=0, le=48.0)

    # A plain pollTasks answer is reused while the database is unchanged, for at most this
    # long (api/poll_cache.py); 0 reads every poll. At most as long as a verified token is
    # trusted (core/auth/recent.py).
    poll_cache_seconds: float = Field(default=2.0, ge=0, le=2.0)

    # "cpu" (built-in engine), "remote" (GPU inference service at engine_url) or "diffusion"
    # (the generative engine, engine/diffusion: run by an imaging worker in the imaging
    # environment, .venv-imaging, with the checkpoints in engine_weights_dir).
    engine: Literal["cpu", "remote", "diffusion"] = "cpu"
    engine_url: str = ""
    engine_timeout_seconds: float = 300.0
    engine_weights_dir: str = ""
    # The generative engine's working size (WIDTHxHEIGHT; the real checkpoints' 768x1024), its
    # denoising steps (DPM-Solver++), the largest batch of concurrent requests and how long a
    # batch waits for more (ms), where it runs ("auto": the GPU when there is one) and in what
    # precision ("auto": bfloat16 on a GPU, float32 on the CPU), its seed (added to each
    # request's own), and whether its UNets go through torch.compile.
    diffusion_size: str = "768x1024"
    # 20 steps: engine/diffusion/settings.py's DEFAULT_STEPS says why (a test keeps them equal).
    diffusion_steps: int = Field(default=20, ge=1, le=1000)
    diffusion_max_batch: int = Field(default=8, ge=1, le=64)
    diffusion_batch_window_ms: float = Field(default=5.0, ge=0, le=1000)
    diffusion_device: str = "auto"
    diffusion_dtype: Literal["auto", "float32", "float16", "bfloat16"] = "auto"
    diffusion_seed: int = 0
    diffusion_compile: bool = False
    # Weights whose licence does not allow commercial use (CatVTON's, CC BY-NC-SA 4.0) or is
    # unknown stop the imaging worker at start unless this is set, for development or research;
    # production refuses the switch itself (engine/diffusion/weights.py check_licences).
    allow_non_commercial_weights: bool = False
    # "pass": the generative engine's artefact gate scores and logs each image but refuses none
    # (engine/diffusion/gate.py), for tests and benchmarks on random weights, whose images are
    # noise. Production refuses it: nothing generated is delivered unchecked.
    diffusion_gate: Literal["enforce", "pass"] = "enforce"
    # The model swap's try-on model: FASHN VTON v1.5 (Apache-2.0) or CatVTON (CC BY-NC-SA 4.0,
    # only with ALLOW_NON_COMMERCIAL_WEIGHTS), and FASHN's sampler steps (its reference's 30;
    # engine/diffusion/settings.py FASHN_STEPS, a test keeps them equal).
    diffusion_tryon: Literal["fashn", "catvton"] = "fashn"
    diffusion_tryon_steps: int = Field(default=30, ge=1, le=10_000)
    # The demo seed also fills the public showcase with a few pairs that the engine makes from
    # the fixture photos at seed time (ops/seed_showcase.py). Private test stacks turn it off.
    seed_showcase: bool = True
    # Threads that run engine work in the worker; CPU-bound, so about one per core.
    imaging_concurrency: int = 2
    imaging_heartbeat_timeout_seconds: float = 30.0
    # How long a worker told to stop (SIGTERM: a deploy, a scale-down, compose's `stop`) keeps
    # finishing the activities it holds before Temporal's shutdown cancels them: it polls no new
    # work meanwhile. A render cancelled halfway is retried from the start on another worker, so
    # draining saves that work; compose gives the containers a longer stop_grace_period.
    worker_drain_seconds: float = Field(default=120.0, ge=0, le=3600)

    # Payments: "local" is the embedded test-mode provider (checkout hosted by this app at
    # /pay/test/{session}, test cards only). Webhooks are signed with PAYMENT_WEBHOOK_SECRET
    # (Stripe's scheme); production refuses the default.
    payment_provider: Literal["local", "stripe"] = "local"
    payment_webhook_secret: str = _DEFAULT_WEBHOOK_SECRET
    # PAYMENT_PROVIDER=stripe (payments/stripe.py): the account's secret API key, the webhook
    # endpoint's signing secret (whsec_…), and the API's address (tests point it at a local
    # server that speaks Stripe's REST API). Production refuses them missing or placeholders.
    stripe_secret_key: str = ""
    stripe_webhook_secret: str = ""
    stripe_api_base: str = "https://api.stripe.com"
    # Where enterprise inquiries are mailed.
    sales_email: str = "sales@metamodel.local"
    # Subscriptions (workflows/subscription.py): the length of a period (one month; tests use
    # a few seconds), and dunning with the local provider: a renewal whose card is declined is
    # retried SUBSCRIPTION_DUNNING_RETRIES times, SUBSCRIPTION_GRACE_SECONDS apart, then the
    # subscription is canceled. A workflow continues as new every
    # SUBSCRIPTION_PERIODS_PER_RUN periods, so a years-long history stays small.
    subscription_period_seconds: float = Field(default=2_592_000, gt=0)
    subscription_grace_seconds: float = Field(default=259_200, gt=0)
    subscription_dunning_retries: int = Field(default=2, ge=0, le=10)
    subscription_periods_per_run: int = Field(default=12, ge=1, le=1000)
    # The seller on invoice PDFs (core/billing/invoices.py); a ";" in the address breaks a line.
    seller_name: str = "MetaModel"
    seller_address: str = "MetaModel Technologies; Bengaluru, Karnataka 560001; India"
    # GST on INR invoices (core/gst.py): the seller's GSTIN (empty: not registered, so
    # no GST is shown or split out), the rate included in INR prices, and the SAC (services
    # accounting code) of what is sold: 998319, other information technology services.
    seller_gstin: str = Field(default="", pattern=_GSTIN_OR_NOTHING)
    gst_rate_percent: float = Field(default=18.0, ge=0, le=40)
    sac_code: str = Field(default="998319", pattern=r"^[0-9]{6}$")

    # Traces (core/observability/tracing.py): "file" (OTLP JSON lines under data_dir/traces, read by
    # `python -m ops.trace`), "otlp" (a collector at OTEL_EXPORTER_OTLP_ENDPOINT), "console"
    # or "none". Context propagates whatever this says; the exporter only decides where spans
    # go, and the sample ratio which traces are kept.
    otel_exporter: Literal["none", "console", "otlp", "file"] = "file"
    otel_sample_ratio: float = Field(default=1.0, ge=0.0, le=1.0)
    # The file exporter's rotation: each process's file at most this big, this many old ones.
    otel_file_max_bytes: int = Field(default=10 * 1024 * 1024, gt=0)
    otel_file_backups: int = Field(default=5, ge=0)
    sentry_dsn: str = ""
    # Metrics for Prometheus (core/observability/metrics.py; the README's "Service levels"): the API
    # serves its own at /metrics; each worker process serves the Temporal SDK's and ours on its port
    # (0 = off) at METRICS_HOST (0.0.0.0 in containers); the embedded Temporal dev server its own on
    # TEMPORAL_METRICS_PORT (0 = a port of its choosing, not scraped).
    metrics_host: str = "127.0.0.1"
    orchestration_metrics_port: int = Field(default=9101, ge=0, le=65535)
    imaging_metrics_port: int = Field(default=9102, ge=0, le=65535)
    temporal_metrics_port: int = Field(default=9103, ge=0, le=65535)
    # OBSERVE=1: `make run` also starts Prometheus (Debian's `prometheus`, when installed) on
    # PROMETHEUS_PORT, scraping all of the above (ops/prometheus.yml).
    observe: bool = False
    prometheus_port: int = Field(default=9090, ge=1, le=65535)

    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Log lines (core/observability/logs.py): "json", "console" (readable), or "auto": JSON in
    # production and when the output is not a terminal (the data/logs files), console on a terminal.
    log_format: Literal["auto", "json", "console"] = "auto"
    # The release Sentry reports; empty means the git commit, else the package version.
    release: str = ""

    @model_validator(mode="after")
    def _check_secrets(self) -> Settings:
        if self.environment != "production":
            return self
        problems = []
        for name in ("jwt_secret", "code_secret"):
            value = getattr(self, name)
            if len(value) < 32 or value.startswith("change-me"):
                problems.append(f"{name.upper()} must be set to a random string of 32+ characters")
        if self.s3_secret_key == _DEFAULT_S3_SECRET or self.s3_secret_key.startswith("change-me"):
            problems.append("S3_SECRET_KEY must not be the default")
        if self.payment_webhook_secret == _DEFAULT_WEBHOOK_SECRET or (
            self.payment_webhook_secret.startswith("change-me")
        ):
            problems.append("PAYMENT_WEBHOOK_SECRET must not be the default")
        if self.payment_provider == "stripe":
            for name in ("stripe_secret_key", "stripe_webhook_secret"):
                value = getattr(self, name)
                if not value or value.startswith("change-me") or value == _DEFAULT_WEBHOOK_SECRET:
                    problems.append(f"{name.upper()} must be set for PAYMENT_PROVIDER=stripe")
        if self.engine == "remote" and not self.engine_url:
            problems.append("ENGINE=remote needs ENGINE_URL")
        if self.engine == "diffusion" and not self.engine_weights_dir:
            problems.append("ENGINE=diffusion needs ENGINE_WEIGHTS_DIR")
        if self.c2pa_cert_chain_file is None or self.c2pa_private_key_file is None:
            problems.append(
                "C2PA_CERT_CHAIN_FILE and C2PA_PRIVATE_KEY_FILE must be set: every image is "
                "signed with Content Credentials"
            )
        if self.webhook_allow_private:
            problems.append("WEBHOOK_ALLOW_PRIVATE=true would let webhooks reach this network")
        if self.allow_non_commercial_weights:
            problems.append(
                "ALLOW_NON_COMMERCIAL_WEIGHTS=true would load weights not licensed for "
                "commercial use"
            )
        if self.diffusion_gate != "enforce":
            problems.append("DIFFUSION_GATE=pass would deliver generated images unchecked")
        if self.diffusion_tryon == "catvton":
            problems.append("DIFFUSION_TRYON=catvton would run CatVTON, licensed CC BY-NC-SA 4.0 "
                            "(non-commercial)")
        if problems:
            raise ValueError("refusing to start in production: " + "; ".join(problems))
        return self

    @property
    def webhooks_reach_private(self) -> bool:
        """Whether webhook endpoints may sit on private, loopback or link-local addresses."""
        if self.webhook_allow_private is None:
            return self.environment != "production"
        return self.webhook_allow_private

    @property
    def imaging_slots(self) -> int:
        """How many imaging activities one worker runs at once: `imaging_concurrency`, and for
        the generative engine at least its largest batch (its activity threads mostly wait for
        the one GPU thread, which batches what they bring)."""
        if self.engine == "diffusion":
            return max(self.imaging_concurrency, self.diffusion_max_batch)
        return self.imaging_concurrency

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'app.db').resolve()}"

    @property
    def resolved_public_s3_endpoint(self) -> str:
        return self.s3_public_endpoint or self.s3_endpoint

    @property
    def resolved_temporal_ui_url(self) -> str:
        return self.temporal_ui_url or f"http://127.0.0.1:{self.temporal_ui_port}"

    @property
    def app_url(self) -> str:
        return self.public_app_url or f"http://{self.app_host}:{self.app_port}"

    def resolved_jwt_secret(self) -> str:
        """The configured token key, or one generated once and kept beside the data."""
        return self.jwt_secret or self._kept_secret("jwt-secret")

    def resolved_code_secret(self) -> str:
        """The configured code-hash key, or one generated once and kept beside the data."""
        return self.code_secret or self._kept_secret("code-secret")

    def _kept_secret(self, name: str) -> str:
        path = self.data_dir / name
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_urlsafe(48))
            path.chmod(0o600)
        return path.read_text().strip()


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once (not at import time)."""
    return Settings()
