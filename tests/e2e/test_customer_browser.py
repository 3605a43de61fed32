"""Five things customers met (issue 22), walked in Chromium on one stack, then checked here.

The walk is web/e2e/customer.spec.ts, one test each:
1. a Starter subscriber (subscribed through the API with the test card) switches to Pro on
   /subscription: the plan is Pro, the upgrade was paid once, for the amount and with the
   credits the dialog showed;
2. a partner's visitor (/?dbId=DIST9) opens the site (which starts no guest) and uploads from a
   second tab: the guest that upload starts, and the upload, are DIST9's;
3. an admin's lookup shows a generation its owner deleted through the API;
4. with one free guest a day per address (used up here through the API), a new browser's guest
   is told so under Generate and offered the sign-up;
5. the owner's credit history by custom dates: the totals the page showed and the CSV it
   exported are the API's GET creditUsage for the same range.
"""

from __future__ import annotations

import csv
import re
import uuid
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from core.db import SessionFactory
from core.enums import OrderStatus, UserRole
from core.models.accounts import Account
from core.models.generations import Generation, UploadedFile
from core.settings import Settings
from ops.admin import set_role
from tests.support.accounts import PASSWORD, sign_up
from tests.support.api_client import Guest
from tests.support.browser import empty_dir, walk
from tests.support.paths import REPO, fixture_images
from tests.support.stacks import sessions_for
from tests.support.subscribers import (
    PRO,
    PRO_PRICE,
    STARTER,
    STARTER_PRICE,
    Subscriber,
    payments_of,
)

SCREENS = REPO / "out" / "customer"
DISTRIBUTOR = "DIST9"
GUEST_FREE_CREDITS = 5


@pytest.fixture(scope="module")
def stack_settings() -> dict[str, object]:
    """One guest a day per address gets the free credits (the test uses it up through the API);
    enough new guests a day for every browser context of the walk."""
    return {"free_guests_per_address_per_day": 1, "guests_per_address_per_day": 40,
            "guest_free_credits": GUEST_FREE_CREDITS}


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


class User(Guest):
    """The API client of tests/support with a signed-up user's token (no guest login)."""

    def __init__(self, base_url: str, token: str) -> None:  # noqa: D107 - no super(): no guest
        self.http = httpx.Client(base_url=base_url, timeout=60)
        self.fingerprint = uuid.uuid4().hex
        self.token = token


def deleted_generation(user: User, photo: Path) -> str:
    """A one-image background replace, finished, then deleted by its owner: its id."""
    key = user.upload(photo.read_bytes())
    backgrounds = user.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = user.submit("burstreplace", [key], backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    generation_id: str = submitted.json()["data"]["serviceId"]
    service = user.wait_generation(generation_id, timeout=180)
    assert service["status"] == "completed", service
    deleted = user.http.delete(f"/imageedit/service/{generation_id}", headers=user.headers)
    assert deleted.status_code == 200, deleted.text
    return generation_id


def line(pattern: str, stdout: str) -> re.Match[str]:
    found = re.search(pattern, stdout, re.MULTILINE)
    assert found, f"the walk printed no {pattern!r}:\n{stdout}"
    return found


def test_customer_walks_in_the_browser(stack: Settings, db: SessionFactory) -> None:
    tag = uuid.uuid4().hex[:8]
    owner_email, admin_email = f"owner-{tag}@example.com", f"admin-{tag}@example.com"
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        # 1. A Starter subscriber, paid with the test card (kept on file for the upgrade).
        subscriber = Subscriber(api, db)
        sub_id = subscriber.subscribe(STARTER)["id"]
        # 3 and 5. The owner's generation, deleted; the admin.
        owner_token = sign_up(api, db, owner_email)
        owner = User(stack.app_url, owner_token)
        generation_id = deleted_generation(owner, fixture_images("people")[0])
        sign_up(api, db, admin_email)
        assert set_role(db, admin_email, UserRole.ADMIN)
        # 4. Today's one free guest of this address, used up before the browser's guests come.
        first, second = Guest(stack.app_url), Guest(stack.app_url)
        assert (first.start_credits, second.start_credits) == (GUEST_FREE_CREDITS, 0)

        result = walk("customer.spec.ts", {
            "BASE_URL": stack.app_url, "PASSWORD": PASSWORD,
            "SUB_EMAIL": subscriber.email, "OWNER_EMAIL": owner_email,
            "ADMIN_EMAIL": admin_email, "SERVICE_ID": generation_id,
            "DISTRIBUTOR": DISTRIBUTOR,
            "UPLOAD_IMAGE": str(fixture_images("people")[1]),
            "SCREENSHOT_DIR": str(empty_dir(SCREENS))}, timeout=600)
        assert result.returncode == 0, f"browser walk failed:\n{result.output}"
        assert result.summary == "5 passed, 0 failed", result.output
        out = result.stdout

        # 1. The plan is Pro; the upgrade paid once, for what the dialog showed, its credits
        # granted once (the sidebar rose by them).
        switch = line(r"^SWITCH ([₹$][\d,]+\.\d\d) (\d+)$", out)
        balance = line(r"^BALANCE (\d+) (\d+)$", out)
        order_id = line(r"^UPGRADE_ORDER (\S+)$", out).group(1)
        shown_credits = int(switch.group(2))
        sub = subscriber.subscription()
        assert sub is not None and sub["id"] == sub_id and sub["planId"] == PRO[0], sub
        upgrades = [o for o in payments_of(db, sub_id) if o.plan_name.startswith("Upgrade to ")]
        assert [o.id for o in upgrades] == [order_id]
        (upgrade,) = upgrades
        assert upgrade.status == OrderStatus.PAID
        assert upgrade.amount == PRO_PRICE - STARTER_PRICE
        assert switch.group(1) == f"₹{upgrade.amount // 100:,}.{upgrade.amount % 100:02d}"
        assert upgrade.credits == shown_credits == PRO[2] - STARTER[2]
        grants = [e for e in subscriber.grants() if ":upgrade:" in e.idempotency_key]
        assert [(g.delta_paid, g.reference) for g in grants] == [(shown_credits, order_id)]
        credits = api.get("/api/v1/user/creditsAvailable", headers=subscriber.headers)
        assert credits.json()["data"]["creditsAvailable"]["total"] == int(balance.group(2))
        assert int(balance.group(2)) == int(balance.group(1)) + shown_credits

        # 5. The totals shown and the CSV exported are the API's for the same range.
        totals = line(r"^TOTALS (\S+) (\S+) (\d+) (\d+) (\d+) (\d+)$", out)
        exported = line(r"^CSV (.+\.csv) (\S+) (\S+)$", out)
        start, end = totals.group(1), totals.group(2)
        assert (exported.group(2), exported.group(3)) == (start, end)
        usage = owner.get("/api/v1/user/creditUsage", fromDate=start, toDate=end).json()["data"]
        days: list[dict[str, Any]] = usage["days"]

    def total(field: str) -> int:
        return sum(int(d[field]) for d in days)

    api_totals = (total("grantedPaid"), total("grantedFree"), total("spent"), total("refunded"))
    assert tuple(int(totals.group(i)) for i in range(3, 7)) == api_totals
    assert api_totals[1] > 0 and api_totals[2] > 0  # the sign-up's credits, the charge
    with open(exported.group(1), newline="") as file:
        rows = list(csv.DictReader(file))
    first_day, last_day = date.fromisoformat(start), date.fromisoformat(end)
    assert [r["date"] for r in rows] == [
        (first_day + timedelta(days=n)).isoformat() for n in range((last_day - first_day).days + 1)]
    assert [(r["date"], int(r["spent"]), int(r["refunded"]), int(r["free_added"]),
             int(r["paid_added"])) for r in rows] == [
        (d["date"], d["spent"], d["refunded"], d["grantedFree"], d["grantedPaid"]) for d in days]

    with db() as session:
        # 2. The partner's guest, and the upload its second tab made, are DIST9's.
        fingerprint = line(r"^PARTNER_GUEST (\S+)$", out).group(1)
        guest = session.execute(
            select(Account).where(Account.fingerprint == fingerprint)).scalar_one()
        assert guest.distributor_id == DISTRIBUTOR
        assert session.execute(select(func.count()).select_from(UploadedFile).where(
            UploadedFile.account_id == guest.id)).scalar_one() >= 1
        # 3. The generation the admin saw as deleted is.
        generation = session.get(Generation, generation_id)
        assert generation is not None and generation.deleted_at is not None

    for name in ("pricing-current", "switch-dialog"):
        for width in (1366, 650, 390):
            assert (SCREENS / f"{name}-{width}.png").exists(), f"{name}-{width}.png"
