"""A user's payment history and the invoice PDF of each paid payment.

A payment is anything the user was charged for: a checkout order (a credit pack, or the first
period of a monthly plan) and, once subscriptions record them, each renewal period. Each kind
of record is read through a `PaymentSource`; the history merges every registered source, newest
first, so a new kind of payment only needs a source of its own (`register_payment_source`).

Only the owner sees a payment; someone else's, or one that is not paid, has no invoice
(NotFound, exactly like one that does not exist).
"""

from __future__ import annotations

import heapq
import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core.auth.tokens import Principal
from core.billing.money import format_amount
from core.db import SessionFactory
from core.enums import Currency, OrderStatus, PlanKind
from core.errors import NotFound, Unavailable
from core.gst import split_tax
from core.models.accounts import User
from core.models.billing import InvoiceNumber, Order
from core.settings import Settings

log = logging.getLogger(__name__)

INVOICE_NOT_FOUND = "That invoice was not found."
MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class PaymentRecord:
    """One payment, whatever recorded it. `id` is what GET /payment/invoice/{id} takes."""

    id: str
    user_id: str
    kind: str  # PlanKind
    plan_name: str
    credits: int
    amount: int  # minor units
    currency: str  # Currency
    status: str  # OrderStatus
    created_at: datetime
    paid_at: datetime | None
    provider: str
    provider_payment_id: str | None
    # Which period of its subscription a subscription payment pays for (1 = the checkout).
    period: int | None = None
    # The buyer's GSTIN as given at checkout (an Indian business buyer), else None.
    buyer_gstin: str | None = None

    @property
    def paid(self) -> bool:
        return self.status == OrderStatus.PAID

    @property
    def description(self) -> str:
        if self.kind == PlanKind.SUBSCRIPTION:
            month = f", month {self.period}" if self.period and self.period > 1 else ""
            credits = f"{self.credits} image credits"
            return f"{self.plan_name} plan, monthly subscription{month} ({credits})"
        return f"{self.plan_name} ({self.credits} image credits)"


class PaymentSource(Protocol):
    """One kind of payment record (orders, subscription periods, ...)."""

    def count(self, session: Session, user_id: str) -> int: ...

    def newest(self, session: Session, user_id: str, limit: int) -> list[PaymentRecord]:
        """The user's `limit` newest payments, newest first."""
        ...

    def find(self, session: Session, payment_id: str) -> PaymentRecord | None: ...


def _aware(moment: datetime | None) -> datetime | None:
    if moment is None:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def order_record(order: Order) -> PaymentRecord:
    created = _aware(order.created_at)
    assert created is not None
    return PaymentRecord(
        id=order.id,
        user_id=order.user_id,
        kind=order.kind,
        plan_name=order.plan_name,
        credits=order.credits,
        amount=order.amount,
        currency=order.currency,
        status=order.status,
        created_at=created,
        paid_at=_aware(order.paid_at),
        provider=order.provider,
        provider_payment_id=order.provider_payment_id,
        period=order.subscription_period,
        buyer_gstin=order.buyer_gstin,
    )


class OrderPayments:
    """Checkout orders: packs and monthly plans; each renewal of a subscription is an order
    too (core.billing.subscription_steps.record_period_payment), so they are all listed here."""

    def count(self, session: Session, user_id: str) -> int:
        return int(
            session.scalar(select(func.count()).select_from(Order).where(Order.user_id == user_id))
            or 0
        )

    def newest(self, session: Session, user_id: str, limit: int) -> list[PaymentRecord]:
        rows = session.execute(
            select(Order)
            .where(Order.user_id == user_id)
            .order_by(Order.created_at.desc(), Order.id.desc())
            .limit(limit)
        ).scalars()
        return [order_record(order) for order in rows]

    def find(self, session: Session, payment_id: str) -> PaymentRecord | None:
        order = session.get(Order, payment_id)
        return order_record(order) if order is not None else None


PAYMENT_SOURCES: list[PaymentSource] = [OrderPayments()]


def register_payment_source(source: PaymentSource) -> None:
    """Add a kind of payment to the history and invoices (once)."""
    if not any(type(known) is type(source) for known in PAYMENT_SOURCES):
        PAYMENT_SOURCES.append(source)


@dataclass(frozen=True)
class PaymentPage:
    items: list[PaymentRecord]
    total: int
    page: int
    page_size: int


def payment_history(
    sessions: SessionFactory, principal: Principal, page: int = 1, page_size: int = 20
) -> PaymentPage:
    """The caller's payments of every kind, newest first, one page of them."""
    page = max(page, 1)
    page_size = min(max(page_size, 1), MAX_PAGE_SIZE)
    user_id = principal.user_id
    if user_id is None:
        return PaymentPage([], 0, page, page_size)
    wanted = page * page_size
    with sessions() as session:
        total = sum(source.count(session, user_id) for source in PAYMENT_SOURCES)
        # Each source's newest `wanted` are enough to know the merged list up to `wanted`.
        merged = heapq.merge(
            *(source.newest(session, user_id, wanted) for source in PAYMENT_SOURCES),
            key=lambda record: (record.created_at, record.id),
            reverse=True,
        )
        items = list(merged)[(page - 1) * page_size : wanted]
    return PaymentPage(items, total, page, page_size)


def paid_payment(sessions: SessionFactory, principal: Principal, payment_id: str) -> PaymentRecord:
    """The caller's own paid payment; NotFound for anything else."""
    if principal.user_id is None or not payment_id or len(payment_id) > 64:
        raise NotFound(INVOICE_NOT_FOUND)
    with sessions() as session:
        for source in PAYMENT_SOURCES:
            record = source.find(session, payment_id)
            if record is not None:
                break
        else:
            record = None
    if record is None or record.user_id != principal.user_id or not record.paid:
        raise NotFound(INVOICE_NOT_FOUND)
    return record


# The invoice PDF


@dataclass(frozen=True)
class Buyer:
    name: str
    email: str
    gstin: str | None = None


@dataclass(frozen=True)
class Seller:
    name: str
    address: str
    email: str
    # GST registration, the rate included in INR prices and the SAC of what is sold (settings);
    # an INR invoice of a registered seller is a tax invoice (core/gst.py).
    gstin: str = ""
    gst_rate_percent: float = 0.0
    sac_code: str = ""

    @staticmethod
    def of(settings: Settings) -> Seller:
        return Seller(
            settings.seller_name, settings.seller_address, settings.support_email,
            settings.seller_gstin, settings.gst_rate_percent, settings.sac_code,
        )  # fmt: skip


@dataclass(frozen=True)
class Invoice:
    number: str
    filename: str
    pdf: bytes


# Each round of a race has a winner, so this many payments issued at the very same moment still
# all get their number.
INVOICE_NUMBER_TRIES = 25


def invoice_number(sessions: SessionFactory, payment_id: str) -> str:
    """The payment's invoice number, from one running sequence (INV-000001, INV-000002, ...):
    the one it was given when its invoice was first issued, else the next. Two payments issued
    at once both try the same next number; the unique key lets one win, the other takes the
    one after (and the same payment asked twice at once keeps one number)."""
    for _ in range(INVOICE_NUMBER_TRIES):
        try:
            with sessions.begin() as session:
                issued = session.execute(
                    select(InvoiceNumber.number).where(InvoiceNumber.payment_id == payment_id)
                ).scalar_one_or_none()
                if issued is not None:
                    return format_invoice_number(issued)
                last = session.execute(select(func.max(InvoiceNumber.number))).scalar_one()
                number = (last or 0) + 1
                session.add(InvoiceNumber(number=number, payment_id=payment_id))
        except IntegrityError:
            continue  # that number (or this payment) was just taken: read again
        return format_invoice_number(number)
    raise Unavailable("The invoice could not be numbered right now; please try again.")


def format_invoice_number(number: int) -> str:
    return f"INV-{number:06d}"


def invoice_for(
    sessions: SessionFactory, settings: Settings, principal: Principal, payment_id: str
) -> Invoice:
    record = paid_payment(sessions, principal, payment_id)
    with sessions() as session:
        user = session.get(User, record.user_id)
    buyer = Buyer(
        name=(user.name if user else "") or "",
        email=user.email if user else "",
        gstin=record.buyer_gstin,
    )
    number = invoice_number(sessions, record.id)
    pdf = render_invoice(record, buyer, number, Seller.of(settings))
    return Invoice(number=number, filename=f"{number}.pdf", pdf=pdf)


# DejaVu Sans has the rupee sign; the standard PDF fonts do not. It comes with matplotlib (a
# locked dependency of the engine) and with most Linux systems.
_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_SYSTEM_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)


@lru_cache(maxsize=1)
def unicode_font_dir() -> Path | None:
    """A folder with DejaVu Sans regular and bold, or None (then invoices use a core font and
    write the currency code instead of its symbol)."""
    candidates: list[Path] = []
    try:
        import matplotlib

        candidates.append(Path(matplotlib.__file__).parent / "mpl-data" / "fonts" / "ttf")
    except ImportError:
        pass
    candidates.extend(_SYSTEM_FONT_DIRS)
    for folder in candidates:
        if all((folder / name).is_file() for name in _FONT_FILES):
            return folder
    log.warning("no DejaVu Sans font found: invoices show currency codes instead of symbols")
    return None


def _money(amount: int, currency: str, unicode: bool) -> str:
    text = format_amount(amount, currency)
    if unicode or currency.upper() != Currency.INR:
        return text
    return text.replace("₹", "INR ")


def _latin(text: str, unicode: bool) -> str:
    """Core fonts speak Latin-1 only."""
    return text if unicode else text.encode("latin-1", "replace").decode("latin-1")


def render_invoice(record: PaymentRecord, buyer: Buyer, number: str, seller: Seller) -> bytes:
    fonts = unicode_font_dir()
    unicode = fonts is not None
    # Imported here: fpdf is a third of a second at import, paid by every API start (and every
    # test stack) for the few who download an invoice.
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="mm")
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.set_margins(18, 18, 18)
    if fonts is not None:
        pdf.add_font("Body", "", str(fonts / _FONT_FILES[0]))
        pdf.add_font("Body", "B", str(fonts / _FONT_FILES[1]))
        family = "Body"
    else:
        family = "Helvetica"
    when = record.paid_at or record.created_at
    # An INR payment to a GST-registered seller: a tax invoice, with both GSTINs, the SAC and
    # the GST the price includes.
    gst = (
        split_tax(record.amount, seller.gst_rate_percent, seller.gstin, buyer.gstin)
        if seller.gstin and record.currency.upper() == Currency.INR
        else None
    )
    pdf.set_title(f"Invoice {number}")
    pdf.set_author(seller.name)
    pdf.set_creation_date(when)
    pdf.add_page()
    width = pdf.epw

    def text(value: str) -> str:
        return _latin(value, unicode)

    def money(amount: int) -> str:
        return _money(amount, record.currency, unicode)

    # Heading: the seller on the left, the invoice's identity on the right.
    top = pdf.get_y()
    pdf.set_font(family, "B", 20)
    pdf.cell(width / 2, 10, text(seller.name), new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, "", 9.5)
    lines = [part.strip() for part in seller.address.replace("\n", ";").split(";")]
    for line in [*lines, seller.email, f"GSTIN: {seller.gstin}" if gst else ""]:
        if line:
            pdf.cell(width / 2, 5, text(line), new_x="LMARGIN", new_y="NEXT")
    seller_bottom = pdf.get_y()
    pdf.set_xy(pdf.l_margin + width / 2, top)
    pdf.set_font(family, "B", 20)
    pdf.cell(width / 2, 10, "TAX INVOICE" if gst else "INVOICE", align="R", new_x="LEFT",
             new_y="NEXT")
    pdf.set_font(family, "", 9.5)
    facts = [
        ("Invoice number", number),
        ("Invoice date", f"{when:%d %b %Y}"),
        ("Order", record.id),
        ("Status", "Paid"),
    ]
    if gst:
        place = (buyer.gstin or seller.gstin)[:2]
        facts.append(("Place of supply", f"state code {place}"))
    for label, value in facts:
        pdf.cell(width / 2, 5, text(f"{label}: {value}"), align="R", new_x="LEFT", new_y="NEXT")
    pdf.set_xy(pdf.l_margin, max(seller_bottom, pdf.get_y()) + 8)

    # Buyer.
    pdf.set_font(family, "B", 11)
    pdf.cell(width, 6, "Bill to", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font(family, "", 10)
    if buyer.name:
        pdf.cell(width, 5.5, text(buyer.name), new_x="LMARGIN", new_y="NEXT")
    pdf.cell(width, 5.5, text(buyer.email), new_x="LMARGIN", new_y="NEXT")
    if gst and buyer.gstin:
        pdf.cell(width, 5.5, f"GSTIN: {buyer.gstin}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(8)

    # The line item.
    columns = (width * 0.55, width * 0.1, width * 0.175, width * 0.175)
    pdf.set_font(family, "B", 10)
    pdf.set_fill_color(240, 240, 244)
    for title, column, align in zip(
        ("Description", "Qty", "Unit price", "Amount"), columns, ("L", "R", "R", "R"),
        strict=True,
    ):
        pdf.cell(column, 8, title, border="B", align=align, fill=True)
    pdf.ln()
    pdf.set_font(family, "", 10)
    described = record.description + (f" (SAC {seller.sac_code})" if gst else "")
    price = gst.taxable if gst else record.amount
    pdf.multi_cell(
        columns[0], 7, text(described), new_x="RIGHT", new_y="TOP", max_line_height=5.5
    )
    pdf.cell(columns[1], 7, "1", align="R")
    pdf.cell(columns[2], 7, money(price), align="R")
    pdf.cell(columns[3], 7, money(price), align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    pdf.line(pdf.l_margin, pdf.get_y(), pdf.l_margin + width, pdf.get_y())
    pdf.ln(3)

    # Totals: a tax invoice's taxable value and GST lines (they add up to the price paid);
    # otherwise no tax is charged (a seller without a GSTIN, or a payment in dollars).
    label_width = sum(columns[:3])
    if gst:
        taxes = [("Taxable value", money(gst.taxable), False)] + [
            (line.label, money(line.amount), False) for line in gst.lines
        ]
    else:
        taxes = [("Subtotal", money(record.amount), False), ("Tax (0%)", money(0), False)]
    for label, value, bold in (
        *taxes,
        ("Total", money(record.amount), True),
        ("Amount paid", money(record.amount), False),
    ):
        pdf.set_font(family, "B" if bold else "", 11 if bold else 10)
        pdf.cell(label_width, 7, label, align="R")
        pdf.cell(columns[3], 7, value, align="R", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(10)

    pdf.set_font(family, "", 9)
    paid_with = f"Paid in {record.currency.upper()} through {record.provider}"
    if record.provider_payment_id:
        paid_with += f" (payment {record.provider_payment_id})"
    pdf.multi_cell(width, 5, text(paid_with + "."), new_x="LMARGIN", new_y="NEXT")
    thanks = f"Thank you for your purchase. Questions about this invoice: {seller.email}"
    pdf.multi_cell(width, 5, text(thanks), new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())
