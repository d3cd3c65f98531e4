# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Money in ledgerlib 2: every amount is an int number of cents (minor units)."""

import re
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

from ledgerlib.errors import MoneyFormatError

_PLAIN = re.compile(r"-?\d+(\.\d{1,2})?")
_MODES = {"half_even": ROUND_HALF_EVEN, "half_up": ROUND_HALF_UP, "down": ROUND_DOWN}


def _check_cents(cents):
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"amounts are int cents in ledgerlib 2, got {type(cents).__name__} {cents!r}")
    return cents


def _round(value, config):
    return int(value.quantize(Decimal(1), rounding=_MODES[config.rounding]))


def parse_money(text):
    """'1234.5' -> 123450.  Only plain decimals with at most two decimals are accepted."""
    raw = str(text).strip()
    if not _PLAIN.fullmatch(raw):
        raise MoneyFormatError(f"cannot parse money from {text!r}")
    return int(Decimal(raw) * 100)


def apply_rate(cents, percent, config):
    """cents * percent / 100, rounded to a whole cent with config.rounding."""
    return _round(Decimal(_check_cents(cents)) * Decimal(str(percent)) / 100, config)


def divide(cents, parts, config):
    """cents / parts, rounded to a whole cent with config.rounding."""
    return _round(Decimal(_check_cents(cents)) / Decimal(int(parts)), config)


def allocate(cents, ratios):
    """Split cents in proportion to ratios, exactly (largest remainder method).

    Leftover cents go to the parts with the largest fractional remainders; among equal remainders the LATER
    parts are served first.
    """
    _check_cents(cents)
    if not ratios or any(r < 0 for r in ratios) or sum(ratios) <= 0:
        raise ValueError("ratios must be non-negative with a positive sum")
    total = sum(ratios)
    exact = [Decimal(cents) * Decimal(str(r)) / Decimal(str(total)) for r in ratios]
    parts = [int(x.to_integral_value(rounding=ROUND_DOWN)) for x in exact]
    leftover = cents - sum(parts)
    order = sorted(range(len(ratios)), key=lambda i: (exact[i] - parts[i], i), reverse=True)
    for i in order[:leftover]:
        parts[i] += 1
    return parts


def format_money(cents, config):
    """123450 -> '$1,234.50'; negative amounts as '($1,234.50)' (negative_style='parens') or '-$1,234.50'."""
    _check_cents(cents)
    units, minor = divmod(abs(cents), 100)
    body = f"{config.symbol}{units:,}.{minor:02d}".replace(",", config.thousands_sep)
    if cents < 0:
        return f"({body})" if config.negative_style == "parens" else f"-{body}"
    return body
