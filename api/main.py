"""The FastAPI application: /api/v1 and /imageedit, plus the built web app at /."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from temporalio.client import Client

from api.deps import AppServices
from api.errors import ApiError, install_error_handlers
from api.routers import auth, catalog, costs, guests, services, tasks, uploads, users
from api.task_watch import TaskWatcher
from api.tracing import TracingMiddleware
from core.db import make_engine, make_session_factory
from core.observability import setup_observability, temporal_interceptors
from core.settings import Settings, get_settings
from core.storage import Storage

log = logging.getLogger(__name__)

WEB_DIST = Path(__file__).resolve().parent.parent / "web" / "dist"
API_PREFIXES = ("api/", "imageedit/", "docs", "openapi.json", "redoc")


async def connect_temporal(settings: Settings, attempts: int = 60) -> Client:
    """Connect once per process; wait for a Temporal server that is still starting."""
    for attempt in range(attempts):
        try:
            return await Client.connect(
                settings.temporal_address,
                namespace=settings.temporal_namespace,
                interceptors=temporal_interceptors(settings),
            )
        except Exception:
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0.5)
    raise RuntimeError("unreachable")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    setup_observability("metamodel-api", settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.resolved_database_url)
        sessions = make_session_factory(engine)
        watcher = TaskWatcher(sessions, settings.resolved_database_url)
        app.state.services = AppServices(
            settings=settings,
            sessions=sessions,
            storage=Storage(settings),
            temporal=await connect_temporal(settings),
            jwt_secret=settings.resolved_jwt_secret(),
            task_watcher=watcher,
        )
        try:
            yield
        finally:
            await watcher.close()
            engine.dispose()

    app = FastAPI(
        title="MetaModel API",
        version="1.0",
        description="AI fashion imagery: model swap (bodySwap) and background replace "
        "(burstreplace). Responses wrap payloads in `data`; errors are `{message}`.",
        lifespan=lifespan,
        responses={
            401: {"model": _error_model(), "description": "Missing or expired token"},
            404: {"model": _error_model(), "description": "Not found"},
            422: {"model": _error_model(), "description": "Invalid request"},
        },
    )
    install_error_handlers(app)
    app.add_middleware(TracingMiddleware)
    for router in (
        auth.router,
        auth.aliases,
        users.router,
        users.aliases,
        guests.router,
        uploads.router,
        costs.router,
        catalog.router,
        services.router,
        tasks.router,
    ):
        app.include_router(router)

    @app.get("/api/health", tags=["health"])
    def health() -> dict[str, str]:
        return {"status": "ok"}

    _serve_web(app)
    return app


def _error_model() -> type:
    from api.schemas import ErrorBody

    return ErrorBody


def _serve_web(app: FastAPI) -> None:
    """Serve web/dist, with index.html for every client-side route."""
    assets = WEB_DIST / "assets"
    if assets.is_dir():
        app.mount("/assets", StaticFiles(directory=assets), name="assets")

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(path: str) -> Response:
        if path.startswith(API_PREFIXES):
            raise ApiError(404, "No such API route.")
        candidate = (WEB_DIST / path).resolve()
        if path and candidate.is_file() and WEB_DIST.resolve() in candidate.parents:
            return FileResponse(candidate)
        index = WEB_DIST / "index.html"
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(
            "<h1>The web app is not built</h1><p>Run <code>make run</code>.</p>", 503
        )


def app_factory() -> FastAPI:
    """Entry point for uvicorn --factory."""
    logging.basicConfig(level=get_settings().log_level)
    return create_app()
