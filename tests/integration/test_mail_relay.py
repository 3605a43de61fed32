"""The one mail path: the outbox is sent by the mail relay (a workflow on a Temporal schedule)
over a real SMTP server, failures are retried with backoff and recorded, and no message goes
out twice however many relays run at once."""

from __future__ import annotations

import asyncio
import logging
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from temporalio.client import Client
from temporalio.worker import Replayer

from activities.mail import RelayMail
from core import mail
from core.db import SessionFactory
from core.mail import RelayReport
from core.models.base import as_utc, utcnow
from core.models.generations import Generation
from core.models.messages import OutboxMessage
from core.settings import Settings
from core.storage import Storage
from ops.seed import seed
from ops.worker import (
    build_workers,
    ensure_mail_and_cleanup_schedules,
    mail_relay_schedule_id,
    upload_cleanup_schedule_id,
)
from tests.integration.test_workflow import real_engine, run_generation
from tests.support.helpers import make_account, make_generation, upload
from tests.support.local_services import MailSink
from tests.support.paths import FIXTURES, fixture_images
from workflows.mail_relay import MAIL_RELAY_WORKFLOW, MailRelayWorkflow


@pytest.fixture
def mailbox() -> Iterator[MailSink]:
    sink = MailSink().start()
    yield sink
    sink.stop()


def smtp_to(settings: Settings, port: int, **more: object) -> Settings:
    return settings.model_copy(
        update={"smtp_host": "127.0.0.1", "smtp_port": port, **more}
    )


def a_mail(to: str = "ann@example.com", subject: str = "Your MetaModel code: 123456") -> mail.Mail:
    return mail.Mail(to=to, subject=subject, body="Your code is 123456.\n", kind="signup-code",
                     dedupe_key=f"test:{uuid.uuid4().hex}")


def row(sessions: SessionFactory, outbox_id: int) -> OutboxMessage:
    with sessions() as session:
        found = session.get(OutboxMessage, outbox_id)
        assert found is not None
        return found


@asynccontextmanager
async def orchestration(temporal: Client, settings: Settings) -> AsyncIterator[None]:
    async with AsyncExitStack() as stack:
        for worker in build_workers(temporal, settings, None, ("orchestration",)):
            await stack.enter_async_context(worker)
        yield


async def relay_once(temporal: Client, settings: Settings) -> RelayReport:
    """One run of the relay workflow, as its schedule starts it."""
    run_id = f"mail-relay-test-{uuid.uuid4().hex[:8]}"
    report: RelayReport = await temporal.execute_workflow(
        MAIL_RELAY_WORKFLOW, RelayMail(), id=run_id, task_queue=settings.task_queue,
        result_type=RelayReport)
    history = await temporal.get_workflow_handle(run_id).fetch_history()
    await Replayer(workflows=[MailRelayWorkflow]).replay_workflow(history)
    return report


async def test_completion_mail_of_a_finished_generation_arrives_over_smtp(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
    mailbox: MailSink,
) -> None:
    """Notify only puts the mail in the outbox; the scheduled relay is what sends it."""
    settings = smtp_to(settings, mailbox.port, mail_relay_interval_seconds=1)
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[0].read_bytes())
    generation_id, _ = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")
    with sessions.begin() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        generation.guest_email = "guest@example.com"

    async with AsyncExitStack() as stack:
        for worker in build_workers(temporal, settings, real_engine()):
            await stack.enter_async_context(worker)
        await ensure_mail_and_cleanup_schedules(temporal, settings)
        try:
            result = await run_generation(temporal, settings, generation_id)
            assert result.status == "completed"
            for _ in range(100):
                if mailbox.to("guest@example.com"):
                    break
                await asyncio.sleep(0.1)
        finally:
            for schedule_id in (mail_relay_schedule_id(settings),
                                upload_cleanup_schedule_id(settings)):
                await temporal.get_schedule_handle(schedule_id).delete()

    (message,) = mailbox.to("guest@example.com")
    assert message["Subject"] == "Your images are ready"
    assert f"serviceId={generation_id}" in message.get_payload()
    with sessions() as session:
        (kept,) = session.execute(select(OutboxMessage)).scalars().all()
    assert kept.sent_at is not None and kept.attempts == 1 and kept.last_error is None


async def test_a_failed_send_is_retried_with_backoff_and_delivered_once_the_server_is_up(
    temporal: Client, settings: Settings, sessions: SessionFactory,
) -> None:
    sink = MailSink()  # its port is chosen but nothing listens on it yet
    settings = smtp_to(settings, sink.port, mail_retry_base_seconds=1.5)
    outbox_id = mail.keep(sessions, a_mail())
    assert outbox_id is not None

    async with orchestration(temporal, settings):
        assert await relay_once(temporal, settings) == RelayReport(sent=0, failed=1)
        failed = row(sessions, outbox_id)
        assert failed.sent_at is None and failed.attempts == 1
        assert failed.last_error and "Connection refused" in failed.last_error
        assert failed.next_attempt_at is not None
        wait = as_utc(failed.next_attempt_at) - utcnow()
        assert timedelta(seconds=1) < wait <= timedelta(seconds=1.5)

        # Not due yet: a relay run in the meantime leaves it alone.
        assert await relay_once(temporal, settings) == RelayReport(sent=0, failed=0)
        assert row(sessions, outbox_id).attempts == 1

        sink.start()
        try:
            await asyncio.sleep(wait.total_seconds())
            assert await relay_once(temporal, settings) == RelayReport(sent=1, failed=0)
            assert await relay_once(temporal, settings) == RelayReport(sent=0, failed=0)
        finally:
            sink.stop()

    assert [m["Subject"] for m in sink.to("ann@example.com")] == ["Your MetaModel code: 123456"]
    delivered = row(sessions, outbox_id)
    assert delivered.sent_at is not None and delivered.attempts == 2
    # The record of what went wrong on the way stays.
    assert delivered.last_error and "Connection refused" in delivered.last_error


def test_the_relay_gives_up_after_the_last_attempt_and_says_so(
    settings: Settings, sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    nobody = MailSink()  # never started
    settings = smtp_to(settings, nobody.port, mail_max_attempts=3, mail_retry_base_seconds=0)
    outbox_id = mail.keep(sessions, a_mail(to="bob@example.com"))
    assert outbox_id is not None
    with caplog.at_level(logging.WARNING, logger="core.mail"):
        reports = [mail.relay_due(settings, sessions) for _ in range(5)]
    assert reports == [RelayReport(failed=1)] * 3 + [RelayReport()] * 2
    given_up = row(sessions, outbox_id)
    assert (given_up.attempts, given_up.sent_at, given_up.next_attempt_at) == (3, None, None)
    assert any(r.levelno == logging.ERROR and "gave up on mail" in r.getMessage()
               and "bob@example.com" in r.getMessage() for r in caplog.records)


def test_without_smtp_the_relay_logs_the_mail_and_marks_it_handled(
    settings: Settings, sessions: SessionFactory, caplog: pytest.LogCaptureFixture
) -> None:
    assert not settings.smtp_host
    outbox_id = mail.keep(sessions, a_mail(to="cy@example.com"))
    assert outbox_id is not None
    with caplog.at_level(logging.WARNING, logger="core.mail"):
        assert mail.relay_due(settings, sessions) == RelayReport(sent=1)
        assert mail.relay_due(settings, sessions) == RelayReport()
    assert row(sessions, outbox_id).sent_at is not None
    logged = [r.getMessage() for r in caplog.records if "cy@example.com" in r.getMessage()]
    assert len(logged) == 1 and "Your code is 123456." in logged[0]


def test_mail_older_than_the_maximum_age_is_never_sent(
    settings: Settings, sessions: SessionFactory, mailbox: MailSink
) -> None:
    """Mail kept before there was a relay (or a code long expired) is stale: not sent late."""
    settings = smtp_to(settings, mailbox.port)
    stale = mail.keep(sessions, a_mail(to="old@example.com"))
    fresh = mail.keep(sessions, a_mail(to="new@example.com"))
    with sessions.begin() as session:
        session.execute(update(OutboxMessage).where(OutboxMessage.id == stale).values(
            created_at=utcnow() - timedelta(hours=settings.mail_max_age_hours, minutes=1)))
    assert mail.relay_due(settings, sessions) == RelayReport(sent=1)
    assert stale is not None and fresh is not None
    assert mail.send_now(settings, sessions, stale) is False
    assert [m["To"] for m in mailbox.messages] == ["new@example.com"]
    assert row(sessions, stale).attempts == 0 and row(sessions, fresh).sent_at is not None


def test_two_relays_and_the_api_at_once_send_each_message_exactly_once(
    settings: Settings, database: SessionFactory, mailbox: MailSink
) -> None:
    """Every sender claims a row before sending it; of two claims of one row, one wins."""
    settings = smtp_to(settings, mailbox.port)
    ids = [mail.keep(database, a_mail(to=f"u{n}@example.com", subject=f"code {n}"))
           for n in range(30)]
    start = threading.Barrier(3)
    reports: list[RelayReport] = []
    sent_now: list[bool] = []

    def relay() -> None:
        start.wait()
        reports.append(mail.relay_due(settings, database))

    def api() -> None:
        # The API's immediate first try of rows the relays are after too.
        start.wait()
        sent_now.extend(mail.send_now(settings, database, i) for i in ids if i is not None)

    threads = [threading.Thread(target=relay), threading.Thread(target=relay),
               threading.Thread(target=api)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    subjects = sorted(str(m["Subject"]) for m in mailbox.messages)
    assert subjects == sorted(f"code {n}" for n in range(30))
    assert sum(r.sent for r in reports) + sum(sent_now) == 30
    with database() as session:
        rows = session.execute(select(OutboxMessage)).scalars().all()
    assert all(r.sent_at is not None and r.attempts == 1 for r in rows)
