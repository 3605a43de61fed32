"""Bodies of the gallery, feedback, sharing, downloads and showcase (api/routers/library.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Output, Schema
from api.schemas.wire import Service
from api.validation import IdText
from core.enums import Rating


class GalleryImage(Schema):
    taskId: str
    serviceId: str
    service: Service
    createdAt: str
    inputThumbnailUrl: str
    output: Output
    # A retouched version an operator attached, shown as "Edited" beside the generated one.
    edited: Output | None
    shared: bool
    rating: Rating | None
    comment: str


class GalleryPage(Schema):
    items: list[GalleryImage]
    total: int
    pageNum: int
    pageSize: int


class FeedbackBody(Schema):
    taskId: str = Field(min_length=1, max_length=64)
    rating: Rating
    comment: str = Field(default="", max_length=2000)


class Feedback(Schema):
    taskId: str
    rating: Rating
    comment: str


class ShareBody(Schema):
    taskId: str = Field(min_length=1, max_length=64)
    shared: bool


class Shared(Schema):
    taskId: str
    shared: bool


class Deleted(Schema):
    serviceId: str
    removedObjects: int


class DeletedImage(Schema):
    serviceId: str
    taskId: str
    removedObjects: int
    # It was the generation's last image: the generation is deleted too.
    generationDeleted: bool


class ZipBody(Schema):
    taskIds: list[IdText] = Field(min_length=1, max_length=200)


class ServiceIdView(Schema):
    serviceId: str
