"""Pure rules: no servers, no database."""

from __future__ import annotations

import pytest
from temporalio.exceptions import ApplicationError

from api.errors import status_for
from core.auth.codes import CodeProblem, ResendTooSoon
from core.auth.emails import normalise_email
from core.credits import InsufficientCredits
from core.enums import GenerationKind
from core.errors import InvalidInput, NotAuthenticated, NotFound, Refused, Unavailable
from core.generations.prices import generation_cost, task_share
from core.photos.images import ImageRejected
from core.ratelimit import RateLimited
from core.settings import Settings
from tests.support.provenance import c2pa_files
from workflows.generation import GENERIC_FAILURE, failure_reason


def test_cost_is_per_image_for_each_service() -> None:
    assert generation_cost(GenerationKind.BODY_SWAP, 3) == 3
    assert generation_cost("burstreplace", 20) == 20
    with pytest.raises(ValueError):
        generation_cost("upscale", 1)


@pytest.mark.parametrize(("total", "count", "share"), [(10, 3, 3), (5, 5, 1), (0, 2, 0), (4, 0, 0)])
def test_task_share_never_refunds_more_than_charged(total: int, count: int, share: int) -> None:
    assert task_share(total, count) == share
    assert task_share(total, count) * count <= total


def test_failure_reason_shows_our_messages_and_hides_the_rest() -> None:
    ours = ApplicationError("The image is empty.", type="InputRejected", non_retryable=True)
    assert failure_reason(ours) == "The image is empty."
    theirs = ApplicationError("connection reset by peer", type="OSError")
    assert failure_reason(theirs) == GENERIC_FAILURE
    assert failure_reason(RuntimeError("boom")) == GENERIC_FAILURE


@pytest.mark.parametrize(
    ("raw", "email"),
    [(" Ann@Example.COM ", "ann@example.com"), ("a.b+c@d.co", "a.b+c@d.co")],
)
def test_emails_are_trimmed_and_lower_cased(raw: str, email: str) -> None:
    assert normalise_email(raw) == email


@pytest.mark.parametrize("raw", ["", "ann", "ann@", "a b@c.d", "ann@example", "a\x00@b.co"])
def test_malformed_emails_are_refused_with_the_spec_message(raw: str) -> None:
    with pytest.raises(InvalidInput, match="Please enter correct email"):
        normalise_email(raw)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (InvalidInput("x"), 422),
        (ImageRejected("x"), 422),
        (Refused("x"), 400),
        (CodeProblem("x"), 400),
        (NotAuthenticated("x"), 401),
        (InsufficientCredits(2, 1), 402),
        (NotFound("x"), 404),
        (RateLimited(30), 429),
        (ResendTooSoon(30), 429),
        (Unavailable("x"), 503),
    ],
)
def test_each_domain_error_has_one_status(error: Exception, status: int) -> None:
    assert status_for(error) == status  # type: ignore[arg-type]


def test_insufficient_credits_says_what_is_needed() -> None:
    assert str(InsufficientCredits(3, 1)) == (
        "Not enough credits: this needs 3 credits and you have 1."
    )


def test_production_refuses_default_and_placeholder_secrets() -> None:
    with pytest.raises(ValueError, match="JWT_SECRET"):
        Settings(_env_file=None, environment="production")  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="S3_SECRET_KEY"):
        Settings(
            _env_file=None,  # type: ignore[call-arg]
            environment="production",
            jwt_secret="x" * 40,
            code_secret="y" * 40,
        )
    with pytest.raises(ValueError, match="JWT_SECRET"):
        Settings(
            _env_file=None,  # type: ignore[call-arg]
            environment="production",
            jwt_secret="change-me-to-a-long-random-string-in-production",
            code_secret="y" * 40,
            s3_secret_key="z" * 40,
        )
    with pytest.raises(ValueError, match="PAYMENT_WEBHOOK_SECRET"):
        Settings(
            _env_file=None,  # type: ignore[call-arg]
            environment="production",
            jwt_secret="x" * 40,
            code_secret="y" * 40,
            s3_secret_key="z" * 40,
        )
    ok = Settings(
        _env_file=None,  # type: ignore[call-arg]
        environment="production",
        jwt_secret="x" * 40,
        code_secret="y" * 40,
        s3_secret_key="z" * 40,
        payment_webhook_secret="w" * 40,
        **c2pa_files(),
    )
    assert ok.environment == "production"
    # Development keeps working with the embedded defaults.
    assert Settings(_env_file=None).environment == "development"  # type: ignore[call-arg]


def test_settings_refuse_unknown_choices() -> None:
    with pytest.raises(ValueError):
        Settings(_env_file=None, engine="gpu")  # type: ignore[call-arg]
    with pytest.raises(ValueError):
        Settings(_env_file=None, otel_exporter="zipkin")  # type: ignore[call-arg]
