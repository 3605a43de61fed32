"""Buying credits in Chromium with the local test provider, and the Enterprise Solutions form.

The walk is web/e2e/purchase.spec.ts: pricing → Buy Now as a guest → login modal → /plan-details →
Pay → the TEST MODE checkout → card 4242… → /success → the sidebar's Credit rose by the plan's
credits → the invoice PDF downloads from /billing-info; a declined card → /failure; the
enterprise form's messages and two submitted inquiries (the pricing page's form and the
sidebar's dialog). This test makes the account through the API and checks the server side: the
paid order and its credits, the amount in the invoice PDF, the declined order and the unchanged
balance, the stored inquiries and their mails to sales.
"""

from __future__ import annotations

import io
import re
import uuid
from pathlib import Path

import httpx
import pytest
from pypdf import PdfReader
from sqlalchemy import select

from core.models.messages import EnterpriseInquiry, OutboxMessage
from core.settings import Settings
from tests.support.accounts import PASSWORD, sign_up
from tests.support.browser import empty_dir, walk
from tests.support.paths import REPO
from tests.support.stacks import sessions_for

SCREENS = REPO / "out" / "purchase"
SALES = "sales@example.com"
PLAN_NAME = "Credit Pack"


@pytest.fixture(scope="module")
def stack_settings() -> dict[str, object]:
    """Inquiries are mailed to this address (the stack itself comes from tests/e2e/conftest.py)."""
    return {"sales_email": SALES}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def balance(api: httpx.Client, token: str) -> dict[str, float]:
    answer = api.get("/api/v1/user/creditsAvailable", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    credits: dict[str, float] = answer.json()["data"]["creditsAvailable"]
    return credits


def test_purchase_and_enterprise_inquiries_in_the_browser(stack: Settings) -> None:
    tag = uuid.uuid4().hex[:8]
    email, enterprise_email = f"buyer-{tag}@example.com", f"cto-{tag}@example.com"
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        with sessions_for(stack.resolved_database_url) as db:
            token = sign_up(api, db, email)
        start = balance(api, token)
        result = walk("purchase.spec.ts", {
            "BASE_URL": stack.app_url, "USER_EMAIL": email, "PASSWORD": PASSWORD,
            "PLAN_NAME": PLAN_NAME, "ENTERPRISE_EMAIL": enterprise_email,
            "SCREENSHOT_DIR": str(empty_dir(SCREENS))}, timeout=600)
        assert result.returncode == 0, f"browser walk failed:\n{result.output}"
        assert result.summary == "4 passed, 0 failed", result.output

        paid = re.search(r"^PAID (\S+) (\d+)$", result.stdout, re.MULTILINE)
        declined = re.search(r"^DECLINED (\S+)$", result.stdout, re.MULTILINE)
        shown = re.search(r"^BALANCE (\d+) (\d+)$", result.stdout, re.MULTILINE)
        invoice = re.search(r"^INVOICE (.+\.pdf)$", result.stdout, re.MULTILINE)
        assert paid and declined and shown and invoice, result.stdout
        credits = int(paid.group(2))

        # The paid order granted the plan's credits as paid credits, once; the declined one
        # changed nothing (the balance now is the start plus one purchase).
        order = api.get(f"/api/v1/payment/order/{paid.group(1)}", headers=bearer(token))
        assert order.status_code == 200, order.text
        assert order.json()["data"]["status"] == "paid"
        assert order.json()["data"]["credits"] == credits
        assert order.json()["data"]["plan"]["name"] == PLAN_NAME
        # The invoice the browser downloaded is a real PDF naming the amount paid.
        amount = order.json()["data"]["amount"]
        reader = PdfReader(io.BytesIO(Path(invoice.group(1)).read_bytes()))
        text = "\n".join(page.extract_text() for page in reader.pages)
        assert f"{amount // 100:,}.{amount % 100:02d}" in text, text
        failed = api.get(f"/api/v1/payment/order/{declined.group(1)}", headers=bearer(token))
        assert failed.status_code == 200, failed.text
        assert failed.json()["data"]["status"] == "failed"
        now = balance(api, token)
        assert now["paid"] == start["paid"] + credits
        assert now["total"] == start["total"] + credits
        # The sidebar showed the same numbers the API has.
        assert int(shown.group(1)) == start["total"]
        assert int(shown.group(2)) == now["total"]

        for name in ("pricing", "plan-details", "success", "failure", "enterprise-plan"):
            for width in (1280, 650, 390):
                assert (SCREENS / f"{name}-{width}.png").exists(), f"{name}-{width}.png"

    # The two submitted inquiries are stored (from the pricing page and the sidebar's dialog)
    # and mailed to sales; the invalid attempts never reached the server.
    with sessions_for(stack.resolved_database_url) as db, db() as session:
        inquiries = session.execute(
            select(EnterpriseInquiry).where(EnterpriseInquiry.email == enterprise_email)
            .order_by(EnterpriseInquiry.id)
        ).scalars().all()
        mails = session.execute(
            select(OutboxMessage).where(OutboxMessage.to_address == SALES,
                                        OutboxMessage.kind == "inquiry")
        ).scalars().all()
    assert [(i.identifier, i.name, i.contact, i.organization) for i in inquiries] == [
        ("subscription", "Ada Pricing", "9876543210", "Analytical Pricing Ltd"),
        ("sidebar", "Ada Sidebar", "9876543210", "Analytical Sidebar Ltd"),
    ]
    bodies = [m.body for m in mails if enterprise_email in m.body]
    assert len(bodies) == 2
    assert any("Analytical Pricing Ltd" in body for body in bodies)
    assert any("From: sidebar" in body for body in bodies)
