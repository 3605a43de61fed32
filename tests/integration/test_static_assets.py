"""The built web app (web/dist) as the running stack's API serves it (api/static_assets.py) and
as the compose nginx does (ops/docker/nginx.conf): issue 33 item 11, where `make run` sent the
hashed assets uncompressed and without a long Cache-Control.

The assets are the build's own (`npm run build` writes the .br and .gz copies), so this reads
web/dist: `make test` builds it first.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator

import httpx
import pytest

from core.settings import Settings
from ops.stack import Stack
from tests.support.nginx import compose_nginx
from tests.support.paths import REPO

DIST = REPO / "web" / "dist"
IMMUTABLE = "public, max-age=31536000, immutable"


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py), serving web/dist."""
    if not (DIST / "index.html").is_file():
        pytest.fail("web/dist is not built (make test builds it)")
    return shared_stack.settings


@pytest.fixture(scope="module")
def nginx(stack: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("nginx")
    with compose_nginx(stack.app_host, stack.app_port, DIST, folder) as (host, port):
        yield f"http://{host}:{port}"


def raw_get(base: str, path: str, encodings: str = "identity",
            **headers: str) -> tuple[httpx.Response, bytes]:
    """The response and its body as sent (httpx would decode a Content-Encoding)."""
    headers = {"Accept-Encoding": encodings, **headers}
    with httpx.Client(base_url=base, timeout=30) as client, \
            client.stream("GET", path, headers=headers) as answer:
        return answer, b"".join(answer.iter_raw())


def main_script(base: str) -> str:
    """The entry script that the served index.html names (the current build's)."""
    page = httpx.get(base + "/", timeout=30).text
    found = re.search(r'src="(/assets/index-[\w-]+\.js)"', page)
    assert found, page
    return found.group(1)


def test_the_api_serves_assets_precompressed_and_immutable(stack: Settings) -> None:
    script = main_script(stack.app_url)
    plain, body = raw_get(stack.app_url, script)
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.headers["cache-control"] == IMMUTABLE
    assert plain.headers["vary"] == "Accept-Encoding"
    assert "javascript" in plain.headers["content-type"]

    br, br_body = raw_get(stack.app_url, script, "gzip, deflate, br, zstd")
    assert br.headers["content-encoding"] == "br"
    assert br.headers["cache-control"] == IMMUTABLE and br.headers["vary"] == "Accept-Encoding"
    assert "javascript" in br.headers["content-type"]
    assert br_body == (DIST / (script.lstrip("/") + ".br")).read_bytes()
    assert len(br_body) * 3 < len(body)

    gz, gz_body = raw_get(stack.app_url, script, "gzip")
    assert gz.headers["content-encoding"] == "gzip" and gz.headers["cache-control"] == IMMUTABLE
    assert gzip.decompress(gz_body) == body

    # Revalidation (a reload) answers 304 without the body, still immutable.
    again, nothing = raw_get(stack.app_url, script, "br", **{"If-None-Match": br.headers["etag"]})
    assert again.status_code == 304 and nothing == b""
    assert again.headers["cache-control"] == IMMUTABLE

    missing, _ = raw_get(stack.app_url, "/assets/index-nothing.js", "br")
    assert missing.status_code == 404


def test_the_api_has_index_html_revalidated(stack: Settings) -> None:
    # Without a preconnect to storage: Lighthouse found it unused on every page; / preloads its
    # largest image instead (tests/integration/test_page_head.py).
    for path in ("/", "/upload-images", "/index.html"):
        page, _ = raw_get(stack.app_url, path)
        assert page.status_code == 200 and page.headers["cache-control"] == "no-cache", path
        assert "link" not in page.headers, path


def test_the_compose_nginx_serves_the_same_way(nginx: str) -> None:
    script = main_script(nginx)
    plain, body = raw_get(nginx, script)
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.headers["cache-control"] == IMMUTABLE
    gz, gz_body = raw_get(nginx, script, "gzip, deflate, br")
    assert gz.headers["content-encoding"] == "gzip"  # no brotli_static module in the image
    assert gz.headers["cache-control"] == IMMUTABLE and gz.headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(gz_body) == body and len(gz_body) * 3 < len(body)
    for path in ("/", "/upload-images", "/index.html"):
        page, _ = raw_get(nginx, path)
        assert page.status_code == 200 and page.headers["cache-control"] == "no-cache", path


def test_the_compose_nginx_compresses_the_api_json(nginx: str) -> None:
    """JSON through nginx is gzipped for a client that takes it (issue 39), as it is sent."""
    plain, body = raw_get(nginx, "/openapi.json")
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert len(body) > 10_000
    gz, gz_body = raw_get(nginx, "/openapi.json", "gzip, deflate, br")
    assert gz.status_code == 200 and gz.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in gz.headers["vary"]
    assert gzip.decompress(gz_body) == body and len(gz_body) * 3 < len(body)
