"""Bodies of the guest login (api/routers/guests.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema


class GuestLoginBody(Schema):
    fingerprintId: str | None = Field(default=None, max_length=128)


class GuestLogin(Schema):
    token: str
    credits: int
    # No free credits were granted: this network had used up today's free guest credits
    # (the sign-up's free credits are still there to take).
    freeCreditsWithheld: bool = False
