"""Every error leaves the API as {"message": "..."} with a fitting status.

The rules in core/ raise domain errors; this module is the one place that says which status
each one answers with (STATUS_BY_ERROR, looked up along the class hierarchy).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.validation import SURROGATE_MESSAGE
from core.auth.codes import ResendTooSoon
from core.credits import InsufficientCredits
from core.errors import (
    Conflict,
    DomainError,
    Forbidden,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    PaymentDeclined,
    Refused,
    Unavailable,
    UpstreamFailed,
)
from core.ratelimit import Quota, RateLimited

log = logging.getLogger(__name__)

SERVER_ERROR = "Something went wrong on our side. Please try again in a moment."

STATUS_BY_ERROR: dict[type[DomainError], int] = {
    InvalidInput: 422,
    Refused: 400,
    NotAuthenticated: 401,
    InsufficientCredits: 402,
    PaymentDeclined: 402,
    Forbidden: 403,
    NotFound: 404,
    Conflict: 409,
    RateLimited: 429,
    ResendTooSoon: 429,
    UpstreamFailed: 502,
    Unavailable: 503,
}


def status_for(error: DomainError) -> int:
    for cls in type(error).__mro__:
        status = STATUS_BY_ERROR.get(cls)
        if status is not None:
            return status
    return 400


class ApiError(Exception):
    """For the few answers that are about HTTP itself (an unknown route), not a rule."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _field_name(loc: tuple[object, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "header", "path", "form")]
    return ".".join(parts) or "request"


def _validation_message(error: RequestValidationError) -> str:
    messages = []
    for item in error.errors():
        field = _field_name(tuple(item.get("loc", ())))
        text = str(item.get("msg", "is invalid"))
        if item.get("type") == "string_unicode":  # a lone surrogate in a JSON string
            text = SURROGATE_MESSAGE
        if text.startswith("Value error, "):
            text = text[len("Value error, ") :]
        messages.append(f"{field}: {text}")
    return "; ".join(messages) or "The request is not valid."


def quota_headers(quota: Quota) -> dict[str, str]:
    """The RateLimit-* headers (IETF httpapi-ratelimit-headers) of a counted request."""
    return {
        "RateLimit-Limit": str(quota.limit),
        "RateLimit-Remaining": str(quota.remaining),
        "RateLimit-Reset": str(quota.reset_seconds),
    }


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(DomainError)
    async def _domain_error(_request: Request, error: DomainError) -> JSONResponse:
        headers = None
        if isinstance(error, RateLimited):
            headers = {"Retry-After": str(error.retry_after)}
            if error.limit is not None:
                headers.update(quota_headers(Quota(error.limit, 0, error.retry_after)))
        return JSONResponse({"message": error.message}, status_code=status_for(error),
                            headers=headers)

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"message": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"message": _validation_message(error)}, status_code=422)

    @app.exception_handler(UnicodeEncodeError)
    async def _unencodable(_request: Request, error: UnicodeEncodeError) -> JSONResponse:
        # Text reaches a driver only from a request, and every parser refuses lone surrogates
        # (api/validation.py); should one slip past a new parser, it is still the request's
        # fault, not a server error.
        if "surrogate" in str(error.reason):
            log.error("a lone surrogate reached %s past validation", error.encoding)
            return JSONResponse({"message": SURROGATE_MESSAGE}, status_code=422)
        return _server_error(error)

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, error: Exception) -> JSONResponse:
        # A bug: still a JSON answer a person can read (Starlette's own is plain text).
        # Starlette raises the error again after this answer, so uvicorn logs the traceback
        # and the error reports see it, as before.
        return JSONResponse({"message": SERVER_ERROR}, status_code=500)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        message = error.detail if isinstance(error.detail, str) else "Request failed."
        return JSONResponse({"message": message}, status_code=error.status_code)


def _server_error(error: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=error)
    return JSONResponse({"message": SERVER_ERROR}, status_code=500)
