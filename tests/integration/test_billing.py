"""Billing over HTTP against the running stack with the local test provider: the payment
history, invoice PDFs (read back with pypdf), and credit usage per day from the ledger. The
history's merging of payment sources and the invoice layout in both currencies are checked
without the stack too."""

from __future__ import annotations

import io
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest
from pypdf import PdfReader
from sqlalchemy import func, select

from core.auth.tokens import Principal
from core.billing import invoices, usage
from core.db import SessionFactory
from core.enums import LedgerKind
from core.errors import InvalidInput, NotFound
from core.models.accounts import LedgerEntry
from core.settings import Settings
from tests.support import buyers
from tests.support.api_client import Guest
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack

PACK_INR = ("v2-pack-inr", "v2-pack-inr-once")
# A Maharashtra (27) seller's GSTIN, and buyers' in the same state and in Karnataka (29).
SELLER_GSTIN = "27AAACB1234C1ZF"
BUYER_SAME_STATE = "27AAPFU0939F1ZV"
BUYER_OTHER_STATE = "29AAACM1234B1Z2"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("billing"), seller_name="Billing Test Co",
                       seller_address="1 Test Road; Pune 411001; India",
                       seller_gstin=SELLER_GSTIN) as running:
        yield running.settings




class Customer(buyers.Buyer):
    """A signed-up user who buys through the local provider and makes images."""

    def __init__(self, api: httpx.Client, db: SessionFactory, stack: Settings) -> None:
        super().__init__(api, db, prefix="billing")
        self.browser = Guest(stack.app_url)
        self.browser.token = self.token  # the same browser, now signed in

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.api.get(path, params=params, headers=self.headers)

    def buy(self, plan: tuple[str, str] = PACK_INR, currency: str = "INR",
            card: str | None = "4242 4242 4242 4242") -> str:
        data = self.start(plan, currency)
        if card is not None:
            path = httpx.URL(data["checkoutUrl"]).path
            paid = self.api.post(path, data={"card": card}, follow_redirects=False)
            assert paid.status_code == 303, paid.text
        return data["orderId"]

    def buy_with(self, **extra: str) -> str:
        """A pack in rupees, paid with a test card, with more fields in the checkout's body."""
        data = self.start(PACK_INR, "INR", **extra)
        paid = self.api.post(httpx.URL(data["checkoutUrl"]).path,
                             data={"card": "4242 4242 4242 4242"}, follow_redirects=False)
        assert paid.status_code == 303, paid.text
        return data["orderId"]

    def wait_paid(self, order_id: str, timeout: float = 30) -> None:
        self.wait_order(order_id, "paid", timeout)

    def generate(self) -> None:
        browser = self.browser
        key = browser.upload(fixture_images("people")[0].read_bytes())
        backgrounds = browser.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
        background_id = backgrounds.json()["data"]["items"][0]["_id"]
        submitted = browser.submit("burstreplace", [key], backgroundId=background_id)
        assert submitted.status_code == 200, submitted.text
        browser.wait(submitted.json()["data"]["taskIds"])
        service = browser.wait_generation(submitted.json()["data"]["serviceId"])
        assert service["status"] == "completed", service


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_history_and_invoice_pdf_of_a_purchase(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    customer = Customer(api, db, stack)
    assert customer.get("/api/v1/payment/history").json()["data"] == {
        "items": [], "total": 0, "pageNum": 1, "pageSize": 20}
    order_id = customer.buy()
    customer.wait_paid(order_id)
    pending_id = customer.buy(card=None)  # a checkout never paid: listed, without an invoice

    history = customer.get("/api/v1/payment/history").json()["data"]
    assert history["total"] == 2 and history["pageNum"] == 1
    pending, paid = history["items"]  # newest first
    assert pending["orderId"] == pending_id and pending["status"] == "pending"
    assert pending["invoiceUrl"] is None
    assert paid == {
        "orderId": order_id,
        "createdAt": paid["createdAt"],
        "description": "Credit Pack (50 image credits)",
        "kind": "pack",
        "amount": 99_900,
        "currency": "INR",
        "status": "paid",
        "invoiceUrl": f"/api/v1/payment/invoice/{order_id}",
    }
    second_page = customer.get("/api/v1/payment/history", pageNum=2, pageSize=1).json()["data"]
    assert [item["orderId"] for item in second_page["items"]] == [order_id]
    assert customer.get("/api/v1/payment/history", pageSize=0).status_code == 422

    invoice = customer.get(paid["invoiceUrl"])
    assert invoice.status_code == 200, invoice.text
    assert invoice.headers["content-type"] == "application/pdf"
    assert invoice.headers["content-disposition"].startswith('attachment; filename="INV-')
    assert invoice.content.startswith(b"%PDF-")
    text = pdf_text(invoice.content)
    # A tax invoice: the seller's GSTIN, the SAC, and the price split into its taxable value
    # and GST at the configured 18% (CGST and SGST: a buyer without a GSTIN is supplied in the
    # seller's state), adding up to what was paid.
    for expected in ("TAX INVOICE", "₹999.00", customer.email, "Billing Test Co",
                     "Pune 411001", "Credit Pack (50 image credits)", order_id,
                     f"GSTIN: {SELLER_GSTIN}", "SAC 998319", "Place of supply: state code 27",
                     "Taxable value", "₹846.61", "CGST (9%)", "₹76.19", "SGST (9%)", "₹76.20"):
        assert expected in text, (expected, text)
    assert "Tax (0%)" not in text and "IGST" not in text
    assert text.count("₹999.00") >= 2  # total, amount paid

    # Not paid, someone else's, or nothing at all: not found, the same way.
    assert customer.get(f"/api/v1/payment/invoice/{pending_id}").status_code == 404
    assert customer.get(f"/api/v1/payment/invoice/{uuid.uuid4().hex}").status_code == 404
    other = Customer(api, db, stack)
    stolen = other.get(f"/api/v1/payment/invoice/{order_id}")
    assert stolen.status_code == 404 and stolen.json()["message"] == invoices.INVOICE_NOT_FOUND
    assert other.get("/api/v1/payment/history").json()["data"]["total"] == 0
    assert api.get(f"/api/v1/payment/invoice/{order_id}").status_code == 401
    assert api.get("/api/v1/payment/history").status_code == 401


def test_a_buyers_gstin_from_settings_or_checkout_is_on_their_invoice(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    customer = Customer(api, db, stack)
    profile = "/api/v1/user/userInfo"

    def patch(**body: str) -> httpx.Response:
        return api.patch(profile, json=body, headers=customer.headers)

    # A GSTIN of the wrong form is refused with what is wrong, and nothing is kept.
    for bad, message in (
        ("27AAPFU0939F1Z", "A GSTIN has 15 characters"),
        ("27AAPFU0939F1ZX", "does not match the rest"),
        ("27AAPFU093901ZV", "This is not a GSTIN"),
        ("00AAPFU0939F1ZV", "not an Indian state code"),
    ):
        refused = patch(gstin=bad)
        assert refused.status_code == 422, refused.text
        assert message in refused.json()["message"], refused.json()
        refused = customer.checkout(*PACK_INR, "INR", gstin=bad)
        assert refused.status_code == 422 and message in refused.json()["message"]
    assert customer.get(profile).json()["data"]["gstin"] is None

    # In settings (lower case and spaces tidied): the next purchase's invoice carries it; same
    # state as the seller, so CGST and SGST.
    name = customer.get(profile).json()["data"]["userName"]
    saved = patch(gstin=" 27aapfu0939f1zv ")
    assert saved.status_code == 200, saved.text
    assert saved.json()["data"]["gstin"] == BUYER_SAME_STATE
    assert saved.json()["data"]["userName"] == name  # left as it was
    first = customer.buy()
    customer.wait_paid(first)
    text = pdf_text(customer.get(f"/api/v1/payment/invoice/{first}").content)
    assert f"GSTIN: {BUYER_SAME_STATE}" in text and "CGST (9%)" in text, text

    # At checkout: kept in settings too; a buyer in another state is charged IGST, and the
    # earlier invoice keeps the GSTIN it was bought with.
    second = customer.buy_with(gstin=BUYER_OTHER_STATE)
    customer.wait_paid(second)
    text = pdf_text(customer.get(f"/api/v1/payment/invoice/{second}").content)
    for expected in (f"GSTIN: {BUYER_OTHER_STATE}", "Place of supply: state code 29",
                     "IGST (18%)", "₹152.39", "₹846.61", f"GSTIN: {SELLER_GSTIN}"):
        assert expected in text, (expected, text)
    assert "CGST" not in text
    assert customer.get(profile).json()["data"]["gstin"] == BUYER_OTHER_STATE
    text = pdf_text(customer.get(f"/api/v1/payment/invoice/{first}").content)
    assert f"GSTIN: {BUYER_SAME_STATE}" in text and BUYER_OTHER_STATE not in text

    # Removed in settings: later invoices carry none.
    assert patch(gstin="").json()["data"]["gstin"] is None


def test_credit_usage_per_day_after_a_purchase_and_a_generation(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    customer = Customer(api, db, stack)
    order_id = customer.buy()
    customer.wait_paid(order_id)
    customer.generate()

    today = datetime.now(UTC).date()
    usage_now = customer.get("/api/v1/user/creditUsage").json()["data"]
    if usage_now["toDate"] != today.isoformat():  # crossed midnight UTC meanwhile
        today = date.fromisoformat(usage_now["toDate"])
    with db() as session:
        free_granted = session.scalar(select(func.sum(LedgerEntry.delta_free)).where(
            LedgerEntry.account_id == customer.account_id,
            LedgerEntry.kind == LedgerKind.GRANT))
        entries = session.scalar(select(func.count()).select_from(LedgerEntry).where(
            LedgerEntry.account_id == customer.account_id))
    assert free_granted == stack.signup_free_credits
    assert len(usage_now["days"]) == 30 and usage_now["totalSpent"] == 1
    assert usage_now["days"][-1] == {"date": today.isoformat(), "spent": 1, "refunded": 0,
                                     "grantedFree": stack.signup_free_credits,
                                     "grantedPaid": 50}
    assert all(day["spent"] == day["grantedPaid"] == 0 for day in usage_now["days"][:-1])

    page = usage_now["entries"]
    assert page["total"] == entries == 3 and page["pageNum"] == 1
    kinds = [(item["kind"], item["delta"], item["description"]) for item in page["items"]]
    assert kinds == [  # newest first
        ("charge", -1, "Background replace images"),
        ("purchase", 50, "Purchased: Credit Pack"),
        ("grant", stack.signup_free_credits, "Free credits"),
    ]
    assert page["items"][1]["deltaPaid"] == 50 and page["items"][1]["reference"] == order_id
    one = customer.get("/api/v1/user/creditUsage", pageNum=2, pageSize=1).json()["data"]
    assert [item["kind"] for item in one["entries"]["items"]] == ["purchase"]
    assert one["entries"]["total"] == 3 and one["days"] == usage_now["days"]

    # A range without today has none of it.
    before = customer.get("/api/v1/user/creditUsage", fromDate="2024-01-01",
                          toDate="2024-12-31").json()["data"]  # a leap year: 366 days
    assert len(before["days"]) == 366 and before["entries"]["total"] == 0
    assert before["days"][0]["date"] == "2024-01-01"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"fromDate": "2026-13-01"}, "fromDate: 2026-13-01 is not a date of the calendar."),
        ({"toDate": "yesterday"}, "toDate: Use a date as YYYY-MM-DD"),
        ({"fromDate": "2026-02-01", "toDate": "2026-01-01"}, "must not be after toDate"),
        ({"fromDate": "2024-01-01", "toDate": "2025-01-01"}, "over a year"),
        ({"pageSize": "500"}, "pageSize"),
    ],
)
def test_credit_usage_refuses_bad_ranges(
    api: httpx.Client, db: SessionFactory, stack: Settings, params: dict[str, str], message: str
) -> None:
    customer = Customer(api, db, stack)
    response = customer.get("/api/v1/user/creditUsage", **params)
    assert response.status_code == 422, response.text
    assert message in response.json()["message"]


# Without the stack


def test_usage_range_rules() -> None:
    today = date(2026, 3, 10)
    assert usage.usage_range(None, None, today) == (date(2026, 2, 9), today)
    assert usage.usage_range(date(2025, 3, 9), date(2026, 3, 9), today)[0] == date(2025, 3, 9)
    with pytest.raises(InvalidInput):
        usage.usage_range(date(2025, 3, 8), date(2026, 3, 9), today)  # 367 days
    with pytest.raises(InvalidInput):
        usage.usage_range(date(2026, 3, 11), None, today)
    assert usage.parse_day("", "fromDate") is None
    with pytest.raises(InvalidInput, match="fromDate"):
        usage.parse_day("2026-02-30", "fromDate")


def record(payment_id: str, minutes: int, **changes: Any) -> invoices.PaymentRecord:
    base = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)
    fields: dict[str, Any] = {
        "id": payment_id, "user_id": "u1", "kind": "pack", "plan_name": "Credit Pack",
        "credits": 50, "amount": 1_900, "currency": "USD", "status": "paid",
        "created_at": base + timedelta(minutes=minutes),
        "paid_at": base + timedelta(minutes=minutes), "provider": "local",
        "provider_payment_id": None,
    }
    fields.update(changes)
    return invoices.PaymentRecord(**fields)


class FakeSource:
    def __init__(self, records: list[invoices.PaymentRecord]) -> None:
        self.records = sorted(records, key=lambda r: (r.created_at, r.id), reverse=True)

    def count(self, session: Any, user_id: str) -> int:
        return sum(r.user_id == user_id for r in self.records)

    def newest(self, session: Any, user_id: str, limit: int) -> list[invoices.PaymentRecord]:
        return [r for r in self.records if r.user_id == user_id][:limit]

    def find(self, session: Any, payment_id: str) -> invoices.PaymentRecord | None:
        return next((r for r in self.records if r.id == payment_id), None)


@contextmanager
def no_session() -> Iterator[None]:
    yield None


def test_history_merges_every_payment_source(monkeypatch: pytest.MonkeyPatch) -> None:
    orders = FakeSource([record("o1", 0), record("o2", 30), record("x", 5, user_id="u2")])
    periods = FakeSource([
        record("p1", 10, kind="subscription", plan_name="Pro", status="paid", period=2),
        record("p2", 40, kind="subscription", plan_name="Pro", status="failed"),
    ])
    monkeypatch.setattr(invoices, "PAYMENT_SOURCES", [orders, periods])
    sessions: Any = no_session
    me = Principal(account_id="a1", kind="user", distributor_id="metamodel", user_id="u1")
    first = invoices.payment_history(sessions, me, 1, 3)
    assert [r.id for r in first.items] == ["p2", "o2", "p1"] and first.total == 4
    assert [r.id for r in invoices.payment_history(sessions, me, 2, 3).items] == ["o1"]
    assert first.items[2].description == (
        "Pro plan, monthly subscription, month 2 (50 image credits)")
    assert invoices.paid_payment(sessions, me, "p1").id == "p1"
    for hidden in ("p2", "x", "nope"):  # not paid; someone else's; nothing
        with pytest.raises(NotFound):
            invoices.paid_payment(sessions, me, hidden)


def test_invoice_pdf_in_dollars_and_without_a_unicode_font(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seller = invoices.Seller("Seller Inc", "2 Main St; Springfield", "help@seller.example")
    buyer = invoices.Buyer("Ada Buyer", "ada@example.com")
    usd = record("abcdef0123456789", 0, amount=6_900, plan_name="Pro", kind="subscription",
                 credits=500)
    text = pdf_text(invoices.render_invoice(usd, buyer, "INV-1", seller))
    for expected in ("$69.00", "$0.00", "Ada Buyer", "ada@example.com", "Seller Inc",
                     "Springfield", "INV-1", "help@seller.example"):
        assert expected in text, (expected, text)
    assert "₹" not in text

    monkeypatch.setattr(invoices, "unicode_font_dir", lambda: None)
    inr = record("abcdef0123456789", 0, amount=149_900, currency="INR")
    text = pdf_text(invoices.render_invoice(inr, buyer, "INV-2", seller))
    assert "INR 1,499.00" in text and "ada@example.com" in text
    # Dollars are never a tax invoice, whatever the seller's registration.
    registered = invoices.Seller("Seller Inc", "2 Main St", "help@seller.example",
                                 SELLER_GSTIN, 18.0, "998319")
    text = pdf_text(invoices.render_invoice(usd, buyer, "INV-3", registered))
    assert "Tax (0%)" in text and "GSTIN" not in text and "TAX INVOICE" not in text
