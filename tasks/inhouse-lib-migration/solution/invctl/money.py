# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""invctl's bridge to ledgerlib 2: int-cent money and aware dates, with the output conventions of invctl 3.x.

invctl keeps behaving exactly as it did on ledgerlib 1: half-up rounding, '-$5.00' for negatives, day-first
dates accepted on input, 'YYYY-MM-DD' on output, the same error messages.
"""

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

import ledgerlib
from ledgerlib import LedgerConfig

from invctl.errors import UserError

SYMBOLS = ("$", "\u20ac", "\u00a3")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")
_CONFIG = [LedgerConfig(rounding="half_up", negative_style="minus")]


def configure(currency):
    _CONFIG[0] = LedgerConfig(currency=currency, rounding="half_up", negative_style="minus")


def config():
    return _CONFIG[0]


def parse_amount(text):
    """'12.5', '$1,234.50', '12.345' -> int cents, rounded half-up (the 1.x rules)."""
    cleaned = str(text).strip()
    for symbol in SYMBOLS:
        cleaned = cleaned.replace(symbol, "")
    cleaned = cleaned.replace(",", "").strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise UserError(f"invalid amount: {text!r}") from None
    if not value.is_finite():
        raise UserError(f"invalid amount: {text!r}")
    return int(value.scaleb(2).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_legacy(value):
    """A float amount of a data file written by invctl on ledgerlib 1 -> int cents."""
    return int(Decimal(repr(float(value))).scaleb(2).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def fmt(cents):
    return ledgerlib.format_money(int(cents), config())


def rate(cents, percent):
    return ledgerlib.apply_rate(int(cents), percent, config())


def divide(cents, parts):
    return ledgerlib.divide(int(cents), parts, config())


def split_equal(cents, parts):
    """Equal parts that add up exactly; leftover cents go to the first parts (the 1.x allocate)."""
    base, extra = divmod(int(cents), parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def parse_day(text):
    """'2024-03-05' or '05/03/2024' (day first) -> aware datetime at midnight."""
    raw = str(text).strip()
    if m := _DMY.fullmatch(raw):
        raw = f"{int(m[3]):04d}-{int(m[2]):02d}-{int(m[1]):02d}"
    elif not _ISO.fullmatch(raw):
        raise UserError(f"invalid date: {text!r}")
    try:
        return ledgerlib.parse_date(raw, config())
    except ledgerlib.DateFormatError:
        raise UserError(f"invalid date: {text!r}") from None


def fmt_day(value):
    return ledgerlib.fmt_date(value, style="date")


def add_days(value, days):
    return ledgerlib.add_days(value, days)


def days_between(start, end):
    return ledgerlib.days_between(start, end)


def next_id(prefix, existing):
    """'PREFIX-0001' style: one more than the highest PREFIX-<digits> in existing."""
    pattern = re.compile(re.escape(prefix) + r"-(\d+)$")
    highest = 0
    for ident in existing:
        m = pattern.match(ident)
        if m:
            highest = max(highest, int(m[1]))
    return f"{prefix}-{highest + 1:04d}"
