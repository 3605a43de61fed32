"""GSTINs are checked for their form and check character; a GST-inclusive price splits into a
taxable value and tax lines that add up to it exactly."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from core.gst import check_character, parse_gstin, split_tax


def test_a_gstin_is_tidied_and_checked() -> None:
    assert check_character("27AAPFU0939F1Z") == "V"  # the GST network's published example
    assert parse_gstin(" 27aapfu0939f1zv ") == "27AAPFU0939F1ZV"
    assert parse_gstin("27-AAPFU-0939F1ZV") == "27AAPFU0939F1ZV"
    assert parse_gstin("") is None and parse_gstin(None) is None
    for bad in ("27AAPFU0939F1ZW", "27AAPFU0939F1Z", "27AAPFU0939F1AV", "45AAPFU0939F1ZV",
                "27AAPFU0939F0ZV", "27AAPFU0939F1ZV1"):
        with pytest.raises(InvalidInput, match="gstin: "):
            parse_gstin(bad)


@pytest.mark.parametrize("amount", [1, 99, 99_900, 149_900, 123_457, 10_000_000])
@pytest.mark.parametrize("rate", [0.0, 5.0, 12.0, 18.0, 28.0])
def test_the_tax_lines_add_up_to_the_price(amount: int, rate: float) -> None:
    seller = "27AAACB1234C1ZF"
    for buyer in (None, "27AAPFU0939F1ZV", "29AAACM1234B1Z2"):
        split = split_tax(amount, rate, seller, buyer)
        assert split.taxable + sum(line.amount for line in split.lines) == amount
        assert abs(split.taxable * rate / 100 - (amount - split.taxable)) <= 1
        labels = [line.label.split(" ")[0] for line in split.lines]
        assert labels == (["IGST"] if buyer and buyer[:2] != seller[:2] else ["CGST", "SGST"])


def test_an_inr_pack_at_18_percent() -> None:
    split = split_tax(99_900, 18.0, "27AAACB1234C1ZF", None)
    assert split.taxable == 84_661
    assert [(line.label, line.amount) for line in split.lines] == [
        ("CGST (9%)", 7_619), ("SGST (9%)", 7_620)]
