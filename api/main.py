"""The FastAPI application: /api/v1 and /imageedit, plus the built web app at /."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.routing import APIRoute
from sqlalchemy import event

from api.deps import AppContext, require_api_key
from api.errors import ApiError, install_error_handlers
from api.metrics import install_metrics
from api.poll_cache import PollCache, PollCacheMiddleware
from api.request_log import RequestLogMiddleware
from api.routers import (
    admin,
    admin_catalog,
    api_keys,
    auth,
    billing,
    catalog,
    costs,
    crawlers,
    guests,
    hosted_checkout,
    inquiries,
    library,
    page_head,
    payments,
    provenance,
    public,
    public_models,
    services,
    site,
    subscriptions,
    tasks,
    uploads,
    users,
    webhooks,
)
from api.static_assets import HashedAssets
from api.task_watch import TaskWatcher
from api.temporal_link import TemporalLink
from api.tracing import TracingMiddleware
from api.validation import RejectNul, form_without_nul
from core.billing.provider import PaymentProvider, WebhookSink
from core.db import SessionFactory, make_database, make_session_factory
from core.observability.logs import configure_logging
from core.observability.setup import setup_observability
from core.settings import Settings, get_settings
from core.storage import Storage

log = logging.getLogger(__name__)

WEB_DIST = Path(__file__).resolve().parent.parent / "web" / "dist"
API_PREFIXES = ("api/", "imageedit/", "docs", "openapi.json", "redoc")
# The web app's own pages under those prefixes (the public API's documentation, /docs/api).
WEB_PAGES_UNDER_API_PREFIXES = ("docs/api",)
# How long start-up waits for a first connection to Temporal before serving without it.
TEMPORAL_STARTUP_WAIT_SECONDS = 5.0


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    setup_observability("metamodel-api", settings)
    poll_cache = PollCache(settings.resolved_database_url, settings.poll_cache_seconds)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        database = make_database(settings.resolved_database_url)
        sessions = make_session_factory(database)
        event.listen(sessions, "after_commit", lambda _session: poll_cache.committed())
        watcher = TaskWatcher(sessions, settings.resolved_database_url)
        # Never blocks start-up for long: without Temporal the API serves, and submits get 503.
        temporal = TemporalLink.from_settings(settings).start()
        if not await temporal.wait_up(TEMPORAL_STARTUP_WAIT_SECONDS):
            log.warning("starting without Temporal; submits answer 503 until it is reachable")
        app.state.context = AppContext(
            settings=settings,
            sessions=sessions,
            storage=Storage(settings),
            temporal=temporal,
            jwt_secret=settings.resolved_jwt_secret(),
            task_watcher=watcher,
            poll_cache=poll_cache,
            payment_providers=_payment_provider,
        )
        # Content Credentials (issue 37): a chain that cannot sign fails start-up, not a check.
        _ = app.state.context.provenance
        # What start-up built lives as long as the process: out of the collector's way, or
        # its full passes walk all of it again and again under load (seen in profiles).
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        try:
            yield
        finally:
            await temporal.close()
            await watcher.close()
            poll_cache.close()
            database.dispose()

    app = FastAPI(
        title="MetaModel API",
        version="1.0",
        description="AI fashion imagery: model swap (bodySwap) and background replace "
        "(burstreplace). Responses wrap payloads in `data`; errors are `{message}`.",
        lifespan=lifespan,
        dependencies=[Depends(form_without_nul)],
        responses={
            401: {"model": _error_model(), "description": "Missing or expired token"},
            404: {"model": _error_model(), "description": "Not found"},
            422: {"model": _error_model(), "description": "Invalid request"},
        },
    )
    install_error_handlers(app)
    # Inside the tracing middleware (added after it), so its lines carry the trace id.
    app.add_middleware(RequestLogMiddleware)
    app.add_middleware(TracingMiddleware)
    app.add_middleware(RejectNul)
    # Repeats of a plain poll, answered before routing, tracing and logging (counted below).
    app.add_middleware(PollCacheMiddleware, cache=poll_cache)
    # Outermost: counts every request, those refused by the middlewares above too.
    install_metrics(app)
    # The image edit API (/imageedit/...) also wants the client's API key when API_KEYS is set.
    image_edit = [Depends(require_api_key)]
    for router, extra in (
        (auth.router, []),
        (auth.aliases, image_edit),
        (users.router, []),
        (users.aliases, image_edit),
        (guests.router, image_edit),
        (uploads.router, []),
        (costs.router, []),
        (catalog.router, []),
        (site.router, []),
        (crawlers.router, []),
        (page_head.router, []),
        (admin.router, []),
        (admin_catalog.router, []),
        # Before services.router, whose /imageedit/service/{id} would take these paths.
        (library.router, image_edit),
        (services.router, image_edit),
        (tasks.router, []),
        (payments.router, []),
        (subscriptions.router, []),
        (billing.router, []),
        (inquiries.router, []),
        (hosted_checkout.router, []),
        (api_keys.router, []),
        (public.router, []),
        (public_models.router, []),
        (provenance.router, []),
        (webhooks.router, []),
    ):
        app.include_router(router, dependencies=extra)
    _match_first(app, tasks.router, "/api/v1/task/pollTasks")

    @app.get("/api/health", tags=["health"])
    async def health() -> dict[str, str]:
        """The API answers; `temporal` says whether submits can start work right now."""
        link: TemporalLink = app.state.context.temporal
        return {"status": "ok", "temporal": "up" if link.up else "down"}

    _serve_web(app)
    return app


def _match_first(app: FastAPI, router: APIRouter, path: str) -> None:
    """Try the GET route at `path` before all others.

    Routes are tried in order, a pattern match each, and pollTasks (which every waiting
    browser calls again and again) came after some sixty others: profiles showed matching as
    15-20% of its cost. The copy is hidden from the schema, so the OpenAPI document keeps its
    order, and it is the same endpoint with the same dependencies as the original."""
    route = next(r for r in router.routes if isinstance(r, APIRoute) and r.path == path)
    app.add_api_route(
        route.path,
        route.endpoint,
        methods=sorted(route.methods or ()),
        response_model=route.response_model,
        dependencies=route.dependencies,
        name=route.name,
        include_in_schema=False,
    )
    app.router.routes.insert(0, app.router.routes.pop())


def _payment_provider(
    settings: Settings, sessions: SessionFactory, sink: WebhookSink
) -> PaymentProvider:
    """The configured payment adapter (PAYMENT_PROVIDER); built here, the composition root,
    so that api/ imports no adapter."""
    from payments import build_provider

    return build_provider(settings, sessions, sink)


def _error_model() -> type:
    from api.schemas.common import ErrorBody

    return ErrorBody


def _serve_web(app: FastAPI) -> None:
    """Serve web/dist, with index.html for every client-side route: the hashed assets
    precompressed and immutable (api/static_assets.py), index.html revalidated each time, and
    for / with its head filled in (api/routers/page_head.py) as nginx's SSI does in compose."""
    # No preconnect to storage: the pages that show its images now preload them (/) or find
    # them late anyway, and Lighthouse found the hint unused on every page (issue 39).
    index_headers = {"Cache-Control": "no-cache"}
    assets = WEB_DIST / "assets"
    if assets.is_dir():
        app.mount("/assets", HashedAssets(directory=assets), name="assets")

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    def spa(path: str, request: Request) -> Response:
        if path.startswith(API_PREFIXES) and path.rstrip("/") not in WEB_PAGES_UNDER_API_PREFIXES:
            raise ApiError(404, "No such API route.")
        candidate = (WEB_DIST / path).resolve()
        index = WEB_DIST / "index.html"
        if (path and candidate.is_file() and WEB_DIST.resolve() in candidate.parents
                and candidate != index.resolve()):
            return FileResponse(candidate)
        if index.is_file() and not path:
            context = request.app.state.context
            head = page_head.page_head("/", context.showcase, context.storage)
            html = index.read_text().replace(page_head.MARKER, head)
            return HTMLResponse(html, headers=index_headers)
        if index.is_file():
            return FileResponse(index, headers=index_headers)
        return HTMLResponse(
            "<h1>The web app is not built</h1><p>Run <code>make run</code>.</p>", 503
        )


def app_factory() -> FastAPI:
    """Entry point for uvicorn --factory."""
    configure_logging(get_settings(), "api")
    return create_app()
