"""Pure commerce rules: webhook signatures (Stripe's scheme), the currency a visitor sees,
money as text, redirect paths, event reading and the enterprise inquiry's checks."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from core.billing import signature
from core.billing.events import UnreadableEvent, parse_event
from core.billing.money import format_amount
from core.billing.orders import purchase_key, safe_redirect
from core.billing.pricing import preferred_currency
from core.contact.inquiries import Inquiry, checked
from core.enums import Currency
from core.errors import InvalidInput

SECRET = "whsec_unit_test"
PAYLOAD = b'{"id":"evt_1","type":"checkout.session.completed"}'


def test_signature_is_stripes_documented_scheme() -> None:
    header = signature.sign(PAYLOAD, SECRET, timestamp=1_700_000_000)
    expected = hmac.new(SECRET.encode(), b"1700000000." + PAYLOAD, hashlib.sha256).hexdigest()
    assert header == f"t=1700000000,v1={expected}"
    assert signature.verify(PAYLOAD, header, SECRET, now=1_700_000_100) == 1_700_000_000


@pytest.mark.parametrize(
    ("payload", "header", "secret", "now", "why"),
    [
        (PAYLOAD + b" ", None, SECRET, 1_700_000_000, "does not match"),  # tampered body
        (PAYLOAD, None, "whsec_other", 1_700_000_000, "does not match"),  # another secret
        (PAYLOAD, None, SECRET, 1_700_000_301, "tolerance"),  # older than 5 minutes
        (PAYLOAD, None, SECRET, 1_699_999_699, "tolerance"),  # from the future
        (PAYLOAD, "", SECRET, 1_700_000_000, "missing"),
        (PAYLOAD, "t=1700000000", SECRET, 1_700_000_000, "no v1"),
        (PAYLOAD, "v1=abc", SECRET, 1_700_000_000, "no timestamp"),
        (PAYLOAD, "t=soon,v1=abc", SECRET, 1_700_000_000, "not a number"),
    ],
)
def test_bad_signatures_are_refused(
    payload: bytes, header: str | None, secret: str, now: int, why: str
) -> None:
    if header is None:
        header = signature.sign(PAYLOAD, SECRET, timestamp=1_700_000_000)
    with pytest.raises(signature.InvalidSignature, match=why):
        signature.verify(payload, header, secret, now=now)


def test_any_matching_v1_of_several_is_accepted() -> None:
    good = signature.sign(PAYLOAD, SECRET, timestamp=1_700_000_000).split(",")[1]
    header = f"t=1700000000,v1={'0' * 64},{good},v0=legacy"
    assert signature.verify(PAYLOAD, header, SECRET, now=1_700_000_000) == 1_700_000_000


@pytest.mark.parametrize(
    ("accept_language", "timezone", "currency"),
    [
        ("en-IN,en;q=0.9", None, Currency.INR),
        ("hi-in", None, Currency.INR),
        ("en-US,en;q=0.8,en-IN;q=0.5", None, Currency.INR),
        ("en-Latn-IN", None, Currency.INR),
        ("en-US,en;q=0.9", None, Currency.USD),
        ("in", None, Currency.USD),  # a language, not the region
        (None, "Asia/Kolkata", Currency.INR),
        (None, "asia/calcutta", Currency.INR),
        ("en-GB", "Europe/London", Currency.USD),
        (None, None, Currency.USD),
    ],
)
def test_currency_follows_the_visitors_region(
    accept_language: str | None, timezone: str | None, currency: Currency
) -> None:
    assert preferred_currency(accept_language, timezone) == currency


def test_money_is_minor_units_shown_with_two_decimals() -> None:
    assert format_amount(149_900, "INR") == "₹1,499.00"
    assert format_amount(1_905, "USD") == "$19.05"
    assert format_amount(5, "usd") == "$0.05"
    assert format_amount(1_999_900, "INR") == "₹19,999.00"


def test_redirect_is_a_path_of_this_site() -> None:
    assert safe_redirect(None) is None and safe_redirect("  ") is None
    assert safe_redirect("/generate?x=1") == "/generate?x=1"
    for bad in ("https://evil.example", "//evil.example", "/\\evil", "generate", "/a\nb"):
        with pytest.raises(InvalidInput, match="redirectby"):
            safe_redirect(bad)


def test_the_grant_key_comes_from_the_providers_ids() -> None:
    assert purchase_key("local", "cs_test_1") == "purchase:local:cs_test_1"


def test_events_are_read_from_stripes_shapes() -> None:
    completed = json.dumps({
        "id": "evt_1", "type": "checkout.session.completed",
        "data": {"object": {"id": "cs_1", "amount_total": 1900, "currency": "usd",
                            "payment_intent": "pi_1", "payment_status": "paid",
                            "metadata": {"orderId": "o1"}}},
    }).encode()
    event = parse_event(completed)
    assert (event.order_id, event.session_id, event.amount, event.currency, event.paid) == (
        "o1", "cs_1", 1900, "USD", True)
    failed = json.dumps({
        "id": "evt_2", "type": "payment_intent.payment_failed",
        "data": {"object": {"id": "pi_2", "amount": 1900, "currency": "usd",
                            "metadata": {"orderId": "o1", "checkoutSessionId": "cs_1"},
                            "last_payment_error": {"message": "Your card was declined."}}},
    }).encode()
    event = parse_event(failed)
    assert (event.session_id, event.paid, event.failure_reason) == (
        "cs_1", False, "Your card was declined.")
    # A float amount is not an amount: never trusted as money.
    floaty = completed.replace(b"1900", b"19.0")
    assert parse_event(floaty).amount is None
    for bad in (b"not json", b"[]", b'{"id":"evt"}', b'{"id":"e","type":"t","data":{}}'):
        with pytest.raises(UnreadableEvent):
            parse_event(bad)


def test_inquiry_rules_are_the_specs() -> None:
    good = Inquiry(" Asha ", "9876543210", "asha@example.com", "Acme", "subscription")
    assert checked(good).name == "Asha"
    with pytest.raises(InvalidInput) as missing:
        checked(Inquiry("", " ", "asha@example.com", "", "sidebar"))
    assert str(missing.value) == (
        "name: This field is required; contact: This field is required; "
        "organization: This field is required"
    )
    for contact in ("98765-43210", "+919876543210", "98 76", "٣٤٥"):
        with pytest.raises(InvalidInput, match="contact: Only numbers are allowed"):
            checked(Inquiry("A", contact, "a@example.com", "Acme", "x"))
    with pytest.raises(InvalidInput, match="email"):
        checked(Inquiry("A", "123", "not-an-email", "Acme", "x"))
