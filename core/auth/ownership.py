"""What a caller owns (issue 33): an object of its account AND of its mode.

A test API key (mm_test_) sees only test objects; live keys and the web app (sessions, guests)
only live ones. Every ownership check goes through here, so that the mode cannot be forgotten
on one route: an object of the other mode answers exactly like someone else's (NotFound), and
nothing made in test mode (free, watermarked) can be shown, shared, zipped, re-rendered or
resent as a live one.
"""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import ColumnElement, and_

from core.auth.tokens import Principal
from core.models.generations import Generation
from core.models.webhooks import WebhookEndpoint


class ModeOwned(Protocol):
    """A row that belongs to one account in one mode."""

    account_id: str
    livemode: bool


def owned_by(principal: Principal, table: type[Generation] | type[WebhookEndpoint]
             ) -> ColumnElement[bool]:
    """The query condition: the row is the caller's account's, in the caller's mode."""
    return and_(table.account_id == principal.account_id,
                table.livemode.is_(principal.livemode))


def owns(principal: Principal, row: ModeOwned) -> bool:
    """The same rule for a row already read."""
    return (row.account_id == principal.account_id
            and bool(row.livemode) == principal.livemode)
