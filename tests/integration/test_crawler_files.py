"""/robots.txt and /sitemap.xml (api/routers/crawlers.py) as the running stack's API serves them
under `make run`, and as the compose nginx passes them on (ops/docker/nginx.conf): issue 39
item 5, where /robots.txt answered the web app's index.html and every page failed Lighthouse's
SEO check.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator

import httpx
import pytest

from core.settings import Settings
from ops.stack import Stack
from tests.support.nginx import compose_nginx
from tests.support.paths import REPO

DIST = REPO / "web" / "dist"
# /upload-images is the create flow's first page, where a guest starts without an account: the
# product's front door, indexed; the steps behind it are not.
PUBLIC_PAGES = ["/", "/upload-images", "/showcase", "/subscription", "/help", "/contact",
                "/docs/api", "/verify"]
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py), serving web/dist (index.html is what a
    missing robots.txt used to answer)."""
    if not (DIST / "index.html").is_file():
        pytest.fail("web/dist is not built (make test builds it)")
    return shared_stack.settings


@pytest.fixture(scope="module")
def nginx(stack: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("nginx")
    with compose_nginx(stack.app_host, stack.app_port, DIST, folder) as (host, port):
        yield f"http://{host}:{port}"


def rules(text: str) -> list[tuple[str, str]]:
    """robots.txt's (field, value) lines, fields lower-cased, comments and blanks left out."""
    found = []
    for line in text.splitlines():
        field, sep, value = line.split("#", 1)[0].partition(":")
        if sep:
            found.append((field.strip().lower(), value.strip()))
    return found


def allowed(robots: list[tuple[str, str]], path: str) -> bool:
    """Whether a crawler may fetch `path`: the longest matching Allow or Disallow wins, Allow on
    a tie (RFC 9309)."""
    matches = [(len(value), field == "allow") for field, value in robots
               if field in ("allow", "disallow") and value and path.startswith(value)]
    return max(matches, default=(0, True))[1]


def check_robots(base: str, app_url: str) -> None:
    answer = httpx.get(f"{base}/robots.txt", timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain"), answer.headers
    assert "<html" not in answer.text.lower() and "<!doctype" not in answer.text.lower()
    robots = rules(answer.text)
    assert ("user-agent", "*") in robots, answer.text
    for page in PUBLIC_PAGES:
        assert allowed(robots, page), f"{page} is disallowed:\n{answer.text}"
    for private in ("/admin-showcase", "/digital-models", "/api/v1/users/me", "/my-images",
                    "/user-setting", "/dashboard", "/billing-info", "/login", "/select-model",
                    "/select-background", "/generate", "/output-image", "/plan-details",
                    "/success", "/pay/checkout"):
        assert not allowed(robots, private), f"{private} is allowed:\n{answer.text}"
    assert ("sitemap", f"{app_url.rstrip('/')}/sitemap.xml") in robots, answer.text


def check_sitemap(base: str, app_url: str) -> None:
    answer = httpx.get(f"{base}/sitemap.xml", timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/xml"), answer.headers
    root = ET.fromstring(answer.content)
    assert root.tag == f"{SITEMAP_NS}urlset"
    locs = [loc.text for loc in root.iter(f"{SITEMAP_NS}loc")]
    assert locs == [app_url.rstrip("/") + page for page in PUBLIC_PAGES]
    # Every page it names is one the site serves.
    for page in PUBLIC_PAGES:
        assert httpx.get(f"{base}{page}", timeout=30).status_code == 200, page


def test_the_api_serves_robots_txt_and_the_sitemap(stack: Settings) -> None:
    check_robots(stack.app_url, stack.app_url)
    check_sitemap(stack.app_url, stack.app_url)
    # The web app still answers its own routes, and unknown files still get index.html.
    assert "<html" in httpx.get(f"{stack.app_url}/showcase", timeout=30).text.lower()


def test_the_compose_nginx_passes_them_on_from_the_api(stack: Settings, nginx: str) -> None:
    # The API writes the public address (PUBLIC_APP_URL) into both, whoever serves them.
    check_robots(nginx, stack.app_url)
    check_sitemap(nginx, stack.app_url)
