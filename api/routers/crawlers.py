"""/robots.txt and /sitemap.xml: what search engines may crawl, and the public pages to index.

Served by the API under `make run` and, through nginx's proxy, in compose (ops/docker/nginx.conf),
so both name the same pages at the same public address (PUBLIC_APP_URL, Settings.app_url).
Without them /robots.txt answered the web app's index.html, which crawlers read as no rules and
Lighthouse fails as an invalid robots.txt (issue 39). The pages are the client-side routes of
web/src/app/router.tsx.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse, Response

from api.deps import SettingsDep

router = APIRouter()

# The pages anyone may read, worth finding by search: the home page, the create flow's first
# page (the product's front door: a guest creates from it without an account), the showcase,
# the plans, help, contact and the public API's documentation.
PUBLIC_PAGES = ("/", "/upload-images", "/showcase", "/subscription", "/help", "/contact",
                "/docs/api", "/verify")

# Everything else a crawler could reach: the operators' pages, the API, the account's pages and
# the create flow's steps behind its first page (a visitor's own images and settings; nothing to
# index), the auth screens and the payment steps. A rule matches every path it begins (/admin
# covers /admin-showcase).
PRIVATE_PREFIXES = (
    "/admin",
    "/digital-models",
    "/api/",
    "/imageedit/",
    "/pay/",
    "/select-model",
    "/select-background",
    "/generate",
    "/output-image",
    "/my-images",
    "/dashboard",
    "/user-setting",
    "/billing-info",
    "/plan-details",
    "/success",
    "/failure",
    "/login",
    "/signup",
    "/forgot-password",
)

# Crawlers fetch these at most daily; an hour keeps a changed PUBLIC_APP_URL from lingering.
CACHE_CONTROL = "public, max-age=3600"


def robots_txt(app_url: str) -> str:
    """The robots.txt of the site at `app_url`."""
    lines = ["User-agent: *", *(f"Allow: {page}" for page in PUBLIC_PAGES if page != "/")]
    lines += [f"Disallow: {prefix}" for prefix in PRIVATE_PREFIXES]
    lines += ["", f"Sitemap: {app_url.rstrip('/')}/sitemap.xml", ""]
    return "\n".join(lines)


def sitemap_xml(app_url: str) -> str:
    """The sitemap (sitemaps.org 0.9) of the public pages at `app_url`."""
    base = app_url.rstrip("/")
    urls = "".join(f"  <url><loc>{escape(base + page)}</loc></url>\n" for page in PUBLIC_PAGES)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            f"{urls}</urlset>\n")


@router.get("/robots.txt", include_in_schema=False, response_class=PlainTextResponse)
def robots(settings: SettingsDep) -> PlainTextResponse:
    return PlainTextResponse(robots_txt(settings.app_url), headers={"Cache-Control": CACHE_CONTROL})


@router.get("/sitemap.xml", include_in_schema=False, response_model=None)
def sitemap(settings: SettingsDep) -> Response:
    return Response(sitemap_xml(settings.app_url), media_type="application/xml",
                    headers={"Cache-Control": CACHE_CONTROL})
