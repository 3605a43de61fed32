"""Bodies of generations: submitting, listing, guest emails (api/routers/services.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema, ServiceView
from core.auth.emails import EMAIL
from core.enums import GenerationStatus


class Submitted(Schema):
    serviceId: str
    taskIds: list[str]
    status: GenerationStatus
    credits: int


class ServicePage(Schema):
    items: list[ServiceView]
    total: int
    pageNumber: int
    pageSize: int


class GuestEmailBody(Schema):
    email: str = Field(min_length=3, max_length=320, pattern=EMAIL.pattern)
    serviceId: str = Field(min_length=1, max_length=64)
