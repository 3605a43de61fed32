"""The mail relay's activity: send what is due in the outbox (core.mail does the work).

Synchronous, in the worker's thread pool: SMTP and the database block, the event loop must not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from temporalio import activity

from activities.registry import Queue, Registration
from core import mail
from core.db import SessionFactory
from core.settings import Settings

RELAY_MAIL = "relay_mail"


@dataclass
class RelayMail:
    """The relay's input (workflow and activity). After `budget_seconds` no new message is
    claimed: with an SMTP server that hangs, a run still ends in bounded time and the rest wait
    for the next run (the schedule skips ticks while one is going)."""

    budget_seconds: float = 30.0


class MailActivities:
    def __init__(self, sessions: SessionFactory, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    @activity.defn(name=RELAY_MAIL)
    def relay_mail(self, inp: RelayMail) -> mail.RelayReport:
        """Send every due outbox message this relay can claim; failures are recorded on their
        rows and retried by a later run, so this activity itself never needs a retry."""
        return mail.relay_due(
            self.settings,
            self.sessions,
            budget=timedelta(seconds=inp.budget_seconds),
            on_each=activity.heartbeat,
        )


REGISTRATION = Registration(
    Queue.ORCHESTRATION, lambda deps: [MailActivities(deps.sessions, deps.settings).relay_mail]
)
