"""Bodies of the app config and the contact form (api/routers/site.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Schema
from core.enums import ContactTopic


class Features(Schema):
    googleLogin: bool
    showcase: bool
    contact: bool


class AppConfig(Schema):
    """Limits and switches the web app reads instead of repeating them (one source of truth)."""

    maxUploadBytes: int
    maxMegapixels: float
    minImageSide: int
    maxInputsPerGeneration: int
    acceptedTypes: list[str]
    features: Features


class ContactBody(Schema):
    name: str = Field(min_length=1, max_length=128)
    email: str = Field(min_length=3, max_length=320)
    topic: ContactTopic = ContactTopic.GENERAL
    message: str = Field(min_length=1, max_length=5000)


class ContactSent(Schema):
    id: int
