"""API keys and a webhook endpoint made in User Setting (issue 23), walked in Chromium, then
checked here.

The walk is web/e2e/api-keys.spec.ts: a signed-up user creates the key "Catalog sync" in User
Setting, reads its secret from the panel shown once (no page wider than the window at 390 px),
adds a webhook endpoint pointing at a receiver this test runs (its signing secret shown once),
uploads a photo and runs a generation with it through the public API (as a program would), sees
the deliveries in the endpoint's log, sees the key's row say "Last used", creates a test key (its
row marked "Test"), revokes the first and finds a request with it answered 401. Here: the keys,
the generation and the revocation as the database holds them, and the receiver's requests,
verified with the Standard Webhooks library and the secret the page showed.
"""

from __future__ import annotations

import re
import uuid

import httpx
from sqlalchemy import select
from standardwebhooks import Webhook

from core.enums import ApiKeyMode, GenerationStatus
from core.models.accounts import ApiKey, User
from core.models.generations import Generation
from core.settings import Settings
from tests.support.accounts import PASSWORD, sign_up
from tests.support.browser import empty_dir, walk
from tests.support.paths import REPO, fixture_images
from tests.support.stacks import sessions_for
from tests.support.webhook_receiver import WebhookReceiver

SCREENS = REPO / "out" / "api-keys"


def line(pattern: str, stdout: str) -> re.Match[str]:
    found = re.search(pattern, stdout, re.MULTILINE)
    assert found, f"the walk printed no {pattern!r}:\n{stdout}"
    return found


def test_api_key_made_in_user_setting(stack: Settings) -> None:
    email = f"keys-{uuid.uuid4().hex[:8]}@example.com"
    with sessions_for(stack.resolved_database_url) as db:
        with httpx.Client(base_url=stack.app_url, timeout=60) as api:
            sign_up(api, db, email)
        receiver = WebhookReceiver().start()
        try:
            result = walk("api-keys.spec.ts", {
                "BASE_URL": stack.app_url, "USER_EMAIL": email, "PASSWORD": PASSWORD,
                "UPLOAD_IMAGE": str(fixture_images("people")[0]),
                "WEBHOOK_URL": receiver.url,
                "SCREENSHOT_DIR": str(empty_dir(SCREENS))}, timeout=600)
        finally:
            receiver.stop()
        assert result.returncode == 0, f"browser walk failed:\n{result.output}"
        assert result.summary == "1 passed, 0 failed", result.output
        out = result.stdout
        live_mask = line(r"^LIVE_KEY (mm_live_\S*…\S{4})$", out).group(1)
        test_mask = line(r"^TEST_KEY (mm_test_\S*…\S{4})$", out).group(1)
        generation_id = line(r"^GENERATION (\S+) completed$", out).group(1)
        webhook_secret = line(r"^WEBHOOK_SECRET (whsec_\S+)$", out).group(1)
        shown = re.findall(r"^WEBHOOK_DELIVERY (msg_\S+) (\S+) (\d+)$", out, re.MULTILINE)
        assert shown, out

        # What the receiver got: signed with the secret the page showed, one request per event
        # (a healthy receiver: no retries), and the log rows the page showed are those requests.
        verifier = Webhook(webhook_secret)
        events = {r.headers["webhook-id"]: verifier.verify(r.body, r.headers)
                  for r in receiver.received}
        assert len(events) == len(receiver.received)
        assert "generation.completed" in {e["type"] for e in events.values()}
        assert all(e["data"].get("id", e["data"].get("generation", {}).get("id"))
                   == generation_id for e in events.values())
        for msg_id, event_type, code in shown:
            assert events[msg_id]["type"] == event_type and code == "200", (msg_id, event_type)

        with db() as session:
            user = session.execute(select(User).where(User.email == email)).scalar_one()
            keys = {k.name: k for k in session.execute(
                select(ApiKey).where(ApiKey.user_id == user.id)).scalars()}
            assert sorted(keys) == ["Catalog sync", "Catalog test"]
            live, test = keys["Catalog sync"], keys["Catalog test"]
            # What the rows showed is the key's prefix and last four characters.
            assert (live.mode, f"{live.prefix}…{live.last4}") == (ApiKeyMode.LIVE, live_mask)
            assert (test.mode, f"{test.prefix}…{test.last4}") == (ApiKeyMode.TEST, test_mask)
            assert live.last_used_at is not None and live.revoked_at is not None
            assert test.revoked_at is None
            generation = session.get(Generation, generation_id)
            assert generation is not None
            assert generation.account_id == live.account_id
            assert generation.status == GenerationStatus.COMPLETED

    shots = {p.name for p in SCREENS.glob("*.png")}
    assert {"api-key-secret-1280.png", "api-key-secret-390.png", "api-key-used-1280.png",
            "api-keys-revoked-390.png"} <= shots, shots
