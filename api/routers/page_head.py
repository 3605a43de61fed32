"""What index.html carries in its head for a page whose largest image the server knows (issue 39).

On a phone the landing page's largest paint (its LCP) is the lead showcase pair, and the browser
learnt its address only after the HTML, the app's scripts and then the showcase call: about 2.3 s
of a 3.2 s LCP under Lighthouse's mobile preset. For / the head now carries that pair, inline as
the showcase call would answer it (web/src/app/routes/homeLoader.ts reads it instead of asking),
and a preload of its two images at high priority, fetched while the scripts load.

One source for both servers: web/index.html holds MARKER, an nginx SSI include. In compose nginx
answers it for / with this route (ops/docker/nginx.conf); under `make run` the API, serving
index.html for /, puts page_head() in its place (api/main.py). Elsewhere the marker is a comment.
A page without a known head, an empty showcase or a failure gives an empty head: the page then
asks for its pair as before, so the head can only make a page faster, never break it.
"""

from __future__ import annotations

import json
import logging
from html import escape

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from api.deps import ShowcaseDep, StorageDep
from api.views import showcase_page
from core.enums import GenerationKind
from core.library.showcase import Showcase
from core.storage import Storage

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/v1/site")

# Exactly as in web/index.html (nginx sets $page_path to the page's path before it serves it).
# The include's stub: nothing in its place when the API cannot answer.
MARKER = ('<!--# block name="none" --><!--# endblock -->'
          '<!--# include virtual="/api/v1/site/page-head?path=$page_path" stub="none" -->')
# The <script> homeLoader.ts reads the lead pair from.
LEAD_PAIR_ID = "lead-pair"
# homeLoader.ts's LEAD_SWAP_QUERY: the first model swap of the showcase.
LEAD_SERVICE, LEAD_PAGE, LEAD_PAGE_SIZE = GenerationKind.BODY_SWAP, 1, 1


def page_head(path: str, showcase: Showcase, storage: Storage) -> str:
    """The HTML that goes in place of MARKER for the page at `path` ("" for most pages)."""
    if path != "/":
        return ""
    try:
        page = showcase_page(
            storage, showcase.public(LEAD_SERVICE, LEAD_PAGE, LEAD_PAGE_SIZE),
            LEAD_PAGE, LEAD_PAGE_SIZE,
        )
    except Exception:  # a faster page is optional, the page itself is not
        log.warning("the landing page is served without its lead pair", exc_info=True)
        return ""
    # The photo ("before"): the compare slider shows it whole and the result clipped over
    # it, so the photo is the painted LCP; the result is left to the page, so that it does not
    # take the phone's bandwidth from the scripts. Attribute-escaped (a presigned URL's query
    # has '&'): the browser reads back the very URL <img src> asks for and takes the preload.
    preloads = "".join(
        f'<link rel="preload" as="image" href="{escape(pair.inputUrl, quote=True)}"'
        ' fetchpriority="high">'
        for pair in page.items[:1]
    )
    data = json.dumps(page.model_dump(mode="json"), separators=(",", ":"))
    # '<' escaped as JSON allows: nothing in the data can close the script or open a comment.
    data = data.replace("<", "\\u003c")
    return f'{preloads}<script id="{LEAD_PAIR_ID}" type="application/json">{data}</script>'


@router.get("/page-head", include_in_schema=False, response_class=HTMLResponse)
def page_head_fragment(
    showcase: ShowcaseDep, storage: StorageDep,
    path: str = Query("/", max_length=200),
) -> HTMLResponse:
    """page_head() for nginx's SSI include (compose); never cached: the pair and its signed
    URLs change."""
    return HTMLResponse(page_head(path, showcase, storage),
                        headers={"Cache-Control": "no-store"})
