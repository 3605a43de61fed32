"""Refusing text no part of the product can store: NUL characters and lone surrogates.

PostgreSQL cannot store a NUL in a text column, and no database driver can encode a lone
surrogate (U+D800..U+DFFF on its own, which a JSON "\\ud800" escape decodes to): either used to
surface as a 500 from the database. One rule, checked in places that together see every input:
this ASGI middleware for the path, the query string and the headers (before any route or
dependency reads them), the shared Schema base class (api/schemas/common.py) for JSON bodies, and
`form_without_nul`, a dependency of the whole app, for form fields and uploaded file names (the
form FastAPI has already parsed, so nothing is read twice). Each answers 422 with the same message.
A route added later is covered without doing anything.
"""

from __future__ import annotations

import json
import re
from itertools import chain
from typing import Annotated
from urllib.parse import unquote_to_bytes

from fastapi import Header, Path, Query, Request
from pydantic import StringConstraints
from starlette.datastructures import UploadFile
from starlette.types import ASGIApp, Receive, Scope, Send

from core.errors import InvalidInput

NUL_MESSAGE = "The request contains a NUL character, which no field accepts."
SURROGATE_MESSAGE = (
    "The request contains text that is not valid Unicode (a lone surrogate such as \\ud800), "
    "which no field accepts."
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(text: str) -> str | None:
    """Why no field can hold this text (a NUL, a lone surrogate), or None when it can."""
    if "\x00" in text:
        return NUL_MESSAGE
    # ASCII text, nearly all of it, is answered without the pattern.
    if not text.isascii() and _SURROGATE.search(text):
        return SURROGATE_MESSAGE
    return None


def unstorable(value: object) -> str | None:
    """The first problem of any string in the value (lists, dicts, their keys too), or None."""
    if isinstance(value, str):
        return text_problem(value)
    if isinstance(value, list | tuple | set):
        for item in value:
            problem = unstorable(item)
            if problem:
                return problem
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = unstorable(key) or unstorable(item)
            if problem:
                return problem
    return None


class RejectNul:
    """422 for a request whose path, query string or headers carry a NUL (raw or %00)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self._has_nul(scope):
            body = json.dumps({"message": NUL_MESSAGE}).encode()
            await send({
                "type": "http.response.start",
                "status": 422,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())],
            })
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _has_nul(scope: Scope) -> bool:
        raw_path: bytes = scope.get("raw_path") or scope.get("path", "").encode()
        query: bytes = scope.get("query_string", b"")
        if _carries_nul(raw_path) or _carries_nul(query):
            return True
        # Every name and value joined: one C-level scan instead of a generator per request.
        return b"\x00" in b"".join(chain.from_iterable(scope["headers"]))


def _carries_nul(raw: bytes) -> bool:
    """A NUL raw or percent-encoded (only a "%" can encode one: "+" decodes to a space)."""
    return b"\x00" in raw or (b"%" in raw and b"\x00" in unquote_to_bytes(raw))


async def form_without_nul(request: Request) -> None:
    """422 for a form whose field names, values or file names carry a NUL or a lone
    surrogate (a form may name its own charset, and some codecs decode to surrogates)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        return
    form = await request.form()  # parsed once: FastAPI's own call left it cached on the request
    for name, value in form.multi_items():
        text = (value.filename or "") if isinstance(value, UploadFile) else value
        problem = text_problem(name) or text_problem(text)
        if problem:
            raise InvalidInput(problem)


# Text bounds shared by parameters and body fields: nothing unbounded reaches a rule or a column.
MAX_ID = 64  # generation, task, model and background ids
MAX_KEY = 512  # storage keys
MAX_TOKEN = 4096  # bearer tokens, refresh cookies
MAX_PASSWORD = 1024
IdText = Annotated[str, StringConstraints(max_length=MAX_ID)]
KeyText = Annotated[str, StringConstraints(max_length=MAX_KEY)]
PasswordText = Annotated[str, StringConstraints(max_length=MAX_PASSWORD)]
ServiceId = Annotated[str, Path(min_length=1, max_length=MAX_ID)]
TaskId = Annotated[str, Path(min_length=1, max_length=MAX_ID)]
AuthorizationHeader = Annotated[str | None, Header(max_length=MAX_TOKEN)]
DistributorHeader = Annotated[str | None, Header(max_length=MAX_ID)]

# Page numbers beyond this are refused (422) rather than overflowing the database's integers
# (an offset of 10^18 rows is an error on SQLite and PostgreSQL alike); no list is that long.
MAX_PAGE = 100_000
PageNumber = Annotated[int, Query(ge=1, le=MAX_PAGE, description="1-based page number")]
