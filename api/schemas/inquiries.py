"""Bodies of the enterprise inquiry form (api/routers/inquiries.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema


class InquiryBody(Schema):
    name: str = Field(max_length=128)
    contact: str = Field(max_length=20, description="Digits only.")
    email: str = Field(max_length=320)
    organization: str = Field(max_length=200)
    identifier: str = Field(max_length=128, description="Where the form was sent from.")


class InquirySent(Schema):
    id: int
