"""Amounts are integers in minor units everywhere; this is the one place they become text."""

from __future__ import annotations

from core.enums import Currency


def format_amount(amount: int, currency: str) -> str:
    """149900 INR → "₹1,499.00"; 1900 USD → "$19.00" (₹ for INR, $ otherwise, as the spec says)."""
    symbol = "₹" if currency.upper() == Currency.INR else "$"
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{symbol}{whole:,}.{cents:02d}"
