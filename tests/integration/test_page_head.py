"""The landing page's head as the running stack's API serves it under `make run`, and as the
compose nginx fills it in through SSI (api/routers/page_head.py, ops/docker/nginx.conf): the
lead showcase pair inline and a preload of its photo, the page's largest paint on a phone
(issue 39). Other routes get index.html as built, and nginx without the API still serves /.

Reads web/dist (its index.html holds the SSI include): `make test` builds it first.
"""

from __future__ import annotations

import html
import json
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from api.routers.page_head import MARKER
from core.db import SessionFactory
from core.enums import UserRole
from core.settings import Settings
from ops.admin import set_role
from ops.ports import free_port
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.nginx import compose_nginx
from tests.support.paths import REPO, fixture_images

DIST = REPO / "web" / "dist"
LEAD: dict[str, str | int] = {"serviceType": "bodySwap", "pageNum": 1, "pageSize": 1}
LEAD_PAIR = re.compile(r'<script id="lead-pair" type="application/json">(.*?)</script>', re.S)
PRELOAD = re.compile(r'<link rel="preload" as="image" href="([^"]*)" fetchpriority="high">')


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py), serving web/dist."""
    index = DIST / "index.html"
    if not index.is_file() or MARKER not in index.read_text():
        pytest.fail("web/dist is not built from the current web/index.html (make test builds it)")
    return shared_stack.settings


@pytest.fixture(scope="module")
def showcased_swap(stack: Settings, api: httpx.Client, db: SessionFactory) -> Iterator[str]:
    """A model swap on the showcase (shared by its owner, picked by an operator), so the lead
    pair exists; taken off again afterwards. Yields its task id."""
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    models = guest.get("/api/v1/model", pageNum=1, pageSize=1, currentProduct="bodySwap").json()
    submitted = guest.submit("bodySwap", [key], modelId=models["data"]["items"][0]["_id"])
    assert submitted.status_code == 200, submitted.text
    (task,) = guest.wait(submitted.json()["data"]["taskIds"])
    assert task["status"] == "completed", task
    email = f"operator-{uuid.uuid4().hex[:8]}@example.com"
    admin = {"Authorization": f"Bearer {sign_up(api, db, email)}"}
    assert set_role(db, email, UserRole.ADMIN)
    shared = guest.post("/imageedit/service/share", json={"taskId": task["taskId"], "shared": True})
    assert shared.status_code == 200, shared.text
    picked = api.put(f"/api/v1/admin/showcase/{task['taskId']}", json={"showcased": True},
                     headers=admin)
    assert picked.status_code == 200, picked.text
    yield task["taskId"]
    guest.post("/imageedit/service/share", json={"taskId": task["taskId"], "shared": False})


@pytest.fixture(scope="module")
def nginx(stack: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("nginx")
    with compose_nginx(stack.app_host, stack.app_port, DIST, folder) as (host, port):
        yield f"http://{host}:{port}"


def lead_page(api: httpx.Client) -> dict[str, Any]:
    """What the landing page would ask the showcase for (web/src/app/routes/homeLoader.ts)."""
    answer = api.get("/imageedit/service/showCaseFromS3", params=LEAD)
    assert answer.status_code == 200, answer.text
    page: dict[str, Any] = answer.json()["data"]
    return page


def check_landing_page(base: str, api: httpx.Client) -> None:
    answer = httpx.get(f"{base}/", timeout=30)
    assert answer.status_code == 200 and answer.headers["cache-control"] == "no-cache"
    page = answer.text
    assert "<!--#" not in page, page  # the include is answered, not sent on
    inline = LEAD_PAIR.findall(page)
    assert len(inline) == 1, page
    # The same pair, with the same signed URLs, as the showcase call answers.
    expected = lead_page(api)
    assert expected["items"], "the showcase has no model swap"
    assert json.loads(inline[0]) == expected
    # One preload, the photo: the URL <img src> will ask for, so the browser reuses it.
    photo = expected["items"][0]["inputUrl"]
    assert [html.unescape(url) for url in PRELOAD.findall(page)] == [photo]
    # In the head, before the scripts, where the browser's preload scanner finds it first.
    assert page.index('rel="preload"') < page.index('<script type="module"') < page.index("</head>")
    assert httpx.get(photo, timeout=30).status_code == 200


def check_other_pages(base: str) -> None:
    built = (DIST / "index.html").read_text()
    for path in ("/showcase", "/upload-images", "/subscription"):
        answer = httpx.get(f"{base}{path}", timeout=30)
        assert answer.status_code == 200, path
        assert answer.text == built, path
        assert "lead-pair" not in answer.text and 'rel="preload" as="image"' not in answer.text


def test_the_api_writes_the_lead_pair_into_the_landing_page(
    stack: Settings, api: httpx.Client, showcased_swap: str
) -> None:
    check_landing_page(stack.app_url, api)
    check_other_pages(stack.app_url)
    # No preconnect to storage any more: Lighthouse found it unused on every page.
    assert "link" not in httpx.get(f"{stack.app_url}/", timeout=30).headers
    # The fragment nginx asks for: empty for a page without a head.
    other = api.get("/api/v1/site/page-head", params={"path": "/showcase"})
    assert other.status_code == 200 and other.text == ""
    assert other.headers["cache-control"] == "no-store"


def test_the_compose_nginx_fills_it_in_through_ssi(
    nginx: str, api: httpx.Client, showcased_swap: str
) -> None:
    check_landing_page(nginx, api)
    check_other_pages(nginx)


def test_without_the_api_nginx_still_serves_the_landing_page(
    tmp_path_factory: pytest.TempPathFactory, stack: Settings
) -> None:
    """Nothing listens where nginx looks for the API: / comes with an empty head, and no
    error text inside the HTML; the page then asks for its pair itself."""
    folder = tmp_path_factory.mktemp("nginx-no-api")
    with compose_nginx("127.0.0.1", free_port(), DIST, folder) as (host, port):
        answer = httpx.get(f"http://{host}:{port}/", timeout=30)
    assert answer.status_code == 200
    assert answer.text == (DIST / "index.html").read_text().replace(MARKER, "")
