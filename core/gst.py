"""India's GST on an invoice: the buyer's registration number (GSTIN) checked for its form, and
a GST-inclusive price split into its taxable value and its tax lines.

A GSTIN is 15 characters: the state's two-digit code, the holder's PAN (5 letters, 4 digits, a
letter), the registration's number in that state (1-9 or A-Z), "Z", and a check character
(base 36, computed over the first 14 as the GST network does). A typo is refused with a message
that says which part is wrong, never stored.

Tax: our prices are what the buyer pays, GST included (as Indian consumer prices are shown), so
an invoice splits the amount into its taxable value and the tax at the configured rate. Within
one state (the buyer's GSTIN's state code is the seller's) the tax is CGST and SGST, half each;
across states it is IGST. A buyer without a GSTIN (a consumer, no address on record) is supplied
where the seller is (IGST Act s. 12(2)(b)), so CGST and SGST.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from core.errors import InvalidInput

_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FORM = re.compile(r"[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]")
# State and union territory codes (01-38), 97 (other territory) and 99 (centre jurisdiction).
_STATES = {f"{n:02d}" for n in range(1, 39)} | {"97", "99"}
EXAMPLE = "27AAPFU0939F1ZV"


def check_character(first14: str) -> str:
    """The GSTIN's 15th character for its first 14 (a Luhn mod 36 check)."""
    total = 0
    for index, char in enumerate(first14):
        product = _CHARS.index(char) * (2 if index % 2 else 1)
        total += product // 36 + product % 36
    return _CHARS[(36 - total % 36) % 36]


def parse_gstin(value: str | None, field: str = "gstin") -> str | None:
    """A GSTIN as stored (upper case, no spaces), None for nothing given (clears it); raises
    InvalidInput with what is wrong."""
    if value is None:
        return None
    gstin = re.sub(r"[\s-]", "", value).upper()
    if not gstin:
        return None
    if len(gstin) != 15:
        raise InvalidInput(
            f"{field}: A GSTIN has 15 characters (e.g. {EXAMPLE}); this one has {len(gstin)}."
        )
    if not _FORM.fullmatch(gstin):
        raise InvalidInput(
            f"{field}: This is not a GSTIN: 2 digits of the state, the 10 characters of the "
            f"PAN, the registration number, Z and a check character (e.g. {EXAMPLE})."
        )
    if gstin[:2] not in _STATES:
        raise InvalidInput(f"{field}: {gstin[:2]} is not an Indian state code.")
    if check_character(gstin[:14]) != gstin[14]:
        raise InvalidInput(
            f"{field}: The GSTIN's last character does not match the rest; please check it "
            "for a typo."
        )
    return gstin


@dataclass(frozen=True)
class TaxLine:
    label: str  # "CGST (9%)", "IGST (18%)"
    amount: int  # minor units


@dataclass(frozen=True)
class TaxSplit:
    taxable: int  # minor units
    lines: tuple[TaxLine, ...]


def _percent(rate: Fraction) -> str:
    return f"{float(rate):g}%"


def split_tax(
    amount: int, rate_percent: float, seller_gstin: str, buyer_gstin: str | None
) -> TaxSplit:
    """`amount` (GST included) as its taxable value and tax lines that add up to it exactly."""
    rate = Fraction(str(rate_percent))
    taxable = round(Fraction(amount) * 100 / (100 + rate))
    tax = amount - taxable
    same_state = buyer_gstin is None or buyer_gstin[:2] == seller_gstin[:2]
    if not same_state:
        return TaxSplit(taxable, (TaxLine(f"IGST ({_percent(rate)})", tax),))
    central = tax // 2
    return TaxSplit(
        taxable,
        (
            TaxLine(f"CGST ({_percent(rate / 2)})", central),
            TaxLine(f"SGST ({_percent(rate / 2)})", tax - central),
        ),
    )
