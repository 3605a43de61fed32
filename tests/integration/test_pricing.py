"""Pricing and enterprise inquiries over HTTP against the running stack with the local test
provider: the plans in both currencies (and the currency a region gets by default), and an
inquiry stored, mailed to sales, checked and rate limited. Split from test_payments.py (what
takes a payment), on a stack of its own."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import func, select

from core.db import SessionFactory
from core.models.messages import EnterpriseInquiry, OutboxMessage
from core.settings import Settings
from tests.support.stacks import running_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("pricing"),
                       sales_email="sales@example.com") as running:
        yield running.settings


# Pricing


def test_pricing_in_both_currencies(api: httpx.Client) -> None:
    for currency in ("INR", "USD"):
        response = api.get("/api/v1/pricing", params={"planVersion": 2, "currency": currency})
        assert response.status_code == 200, response.text
        data = response.json()["data"]
        assert data["currency"] == currency and data["planVersion"] == 2
        plans = data["pricingInfo"]
        assert [p["name"] for p in plans] == ["Starter", "Pro", "Business", "Credit Pack"]
        for plan in plans:
            assert set(plan) == {"_id", "name", "currency", "kind", "rateInfo", "featureList"}
            assert plan["currency"] == currency and plan["featureList"]
            (rate,) = plan["rateInfo"]
            assert set(rate) == {"value", "rateCode", "interval", "config"}
            assert isinstance(rate["value"], int) and rate["value"] > 0
            assert isinstance(rate["config"]["credits"], int)
        pack = plans[-1]
        assert pack["kind"] == "pack" and pack["rateInfo"][0]["interval"] == "once"
        assert {p["rateInfo"][0]["interval"] for p in plans[:3]} == {"month"}
    inr = api.get("/api/v1/pricing", params={"currency": "INR"}).json()["data"]["pricingInfo"]
    assert inr[0]["rateInfo"][0] == {"value": 149_900, "rateCode": "v2-starter-inr-month",
                                     "interval": "month", "config": {"credits": 100}}
    assert api.get("/api/v1/pricing", params={"planVersion": 1}).json()["data"][
        "pricingInfo"] == []
    bad = api.get("/api/v1/pricing", params={"currency": "EUR"})
    assert bad.status_code == 422 and "currency" in bad.json()["message"]


@pytest.mark.parametrize(
    ("headers", "currency"),
    [
        ({"Accept-Language": "en-IN,en;q=0.9"}, "INR"),
        ({"x-timezone": "Asia/Kolkata", "Accept-Language": "en-US"}, "INR"),
        ({"Accept-Language": "en-US,en;q=0.9"}, "USD"),
        ({}, "USD"),
    ],
)
def test_pricing_currency_defaults_by_region(
    api: httpx.Client, headers: dict[str, str], currency: str
) -> None:
    data = api.get("/api/v1/pricing", params={"planVersion": 2}, headers=headers).json()["data"]
    assert data["currency"] == currency
    assert {plan["currency"] for plan in data["pricingInfo"]} == {currency}


# Enterprise inquiries


INQUIRY = {"name": "Asha Rao", "contact": "9876543210", "email": "Asha@Acme.example",
           "organization": "Acme Apparel", "identifier": "subscription"}


def test_an_inquiry_is_stored_mailed_checked_and_rate_limited(
    api: httpx.Client, db: SessionFactory
) -> None:
    sent = api.post("/api/v1/inquiry", json=INQUIRY)
    assert sent.status_code == 201, sent.text
    inquiry_id = sent.json()["data"]["id"]
    with db() as session:
        row = session.get(EnterpriseInquiry, inquiry_id)
        mail = session.execute(select(OutboxMessage).where(
            OutboxMessage.dedupe_key == f"inquiry:{inquiry_id}")).scalar_one()
    assert row is not None and (row.email, row.organization) == ("asha@acme.example",
                                                                 "Acme Apparel")
    assert mail.to_address == "sales@example.com" and "9876543210" in mail.body

    letters = api.post("/api/v1/inquiry", json={**INQUIRY, "contact": "98765abc"})
    assert letters.status_code == 422
    assert letters.json()["message"] == "contact: Only numbers are allowed"
    blank = api.post("/api/v1/inquiry", json={**INQUIRY, "name": " ", "organization": ""})
    assert blank.status_code == 422
    assert blank.json()["message"] == (
        "name: This field is required; organization: This field is required")
    missing = api.post("/api/v1/inquiry", json={"name": "A"})
    assert missing.status_code == 422 and "contact" in missing.json()["message"]

    statuses = [api.post("/api/v1/inquiry", json=INQUIRY).status_code for _ in range(5)]
    assert statuses == [201] * 4 + [429]
    limited = api.post("/api/v1/inquiry", json=INQUIRY)
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) > 0
    with db() as session:
        assert session.scalar(select(func.count()).select_from(EnterpriseInquiry)) == 5
