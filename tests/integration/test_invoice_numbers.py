"""Invoice numbers form one running sequence, on SQLite and PostgreSQL, under concurrency: every
payment gets one number, the same one every time, and no number is used twice or skipped."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from core.billing.invoices import invoice_number
from core.db import SessionFactory

PAYMENTS = 20


def test_concurrent_first_issues_take_consecutive_numbers(database: SessionFactory) -> None:
    payment_ids = [f"order-{n:02d}" for n in range(PAYMENTS)]
    start = threading.Barrier(10)

    def issue(payment_id: str) -> str:
        if payment_ids.index(payment_id) < 10:
            start.wait()  # the first ten race for the same next number
        return invoice_number(database, payment_id)

    with ThreadPoolExecutor(10) as pool:
        numbers = list(pool.map(issue, payment_ids))
    assert sorted(numbers) == [f"INV-{n:06d}" for n in range(1, PAYMENTS + 1)]
    # Asked again (an invoice downloaded twice): the same number, nothing new issued.
    assert [invoice_number(database, p) for p in payment_ids] == numbers
    assert invoice_number(database, "order-new") == f"INV-{PAYMENTS + 1:06d}"


def test_the_same_payment_asked_at_once_keeps_one_number(database: SessionFactory) -> None:
    start = threading.Barrier(8)

    def issue(_: int) -> str:
        start.wait()
        return invoice_number(database, "order-twice")

    with ThreadPoolExecutor(8) as pool:
        numbers = set(pool.map(issue, range(8)))
    assert numbers == {"INV-000001"}
    assert invoice_number(database, "order-next") == "INV-000002"
