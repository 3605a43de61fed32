"""Every error leaves the API as {"message": "..."} with a fitting status."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def not_found(what: str) -> ApiError:
    return ApiError(404, f"{what} was not found.")


def _field_name(loc: tuple[object, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "header", "path", "form")]
    return ".".join(parts) or "request"


def _validation_message(error: RequestValidationError) -> str:
    messages = []
    for item in error.errors():
        field = _field_name(tuple(item.get("loc", ())))
        text = str(item.get("msg", "is invalid"))
        if text.startswith("Value error, "):
            text = text[len("Value error, ") :]
        messages.append(f"{field}: {text}")
    return "; ".join(messages) or "The request is not valid."


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"message": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return JSONResponse({"message": _validation_message(error)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        message = error.detail if isinstance(error.detail, str) else "Request failed."
        return JSONResponse({"message": message}, status_code=error.status_code)
