# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Money helpers of ledgerlib 1.x.  Amounts are floats holding at most two decimals; every operation that can
produce more decimals goes through Decimal (on the float's repr) and is rounded half-up to the cent."""

from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal, InvalidOperation

from ledgerlib import config
from ledgerlib.errors import ValidationError

CENT = Decimal("0.01")
SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}


def _mode():
    return ROUND_HALF_EVEN if config.get("rounding") == "half_even" else ROUND_HALF_UP


def _dec(value):
    return Decimal(repr(float(value))) if not isinstance(value, Decimal) else value


def round_money(value):
    """Round a number to the cent (half-up by default) and return a float."""
    return float(_dec(value).quantize(CENT, rounding=_mode()))


def parse_money(text):
    """'12.5', '$1,234.50', ' 7 ' -> float rounded to the cent.  Raises ValidationError."""
    cleaned = str(text).strip()
    for symbol in SYMBOLS.values():
        cleaned = cleaned.replace(symbol, "")
    cleaned = cleaned.replace(",", "").strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise ValidationError(f"invalid amount: {text!r}") from None
    if not value.is_finite():
        raise ValidationError(f"invalid amount: {text!r}")
    return float(value.quantize(CENT, rounding=_mode()))


def apply_rate(amount, percent):
    """amount * percent / 100, rounded to the cent."""
    return float((_dec(amount) * _dec(percent) / 100).quantize(CENT, rounding=_mode()))


def divide(amount, parts):
    """amount / parts, rounded to the cent."""
    return float((_dec(amount) / Decimal(int(parts))).quantize(CENT, rounding=_mode()))


def allocate(amount, parts):
    """Split amount into `parts` amounts that add up exactly; leftover cents go to the first parts."""
    if parts <= 0:
        raise ValidationError("parts must be positive")
    cents = int((_dec(amount) * 100).to_integral_value(rounding=ROUND_HALF_UP))
    base, extra = divmod(cents, parts)
    return [(base + (1 if i < extra else 0)) / 100 for i in range(parts)]


def fmt_money(amount, currency=None):
    """-1234.5 -> '-$1,234.50' (symbol from the configured currency)."""
    currency = currency or config.get("currency")
    symbol = SYMBOLS.get(currency, currency + " ")
    value = _dec(amount).quantize(CENT, rounding=_mode())
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{abs(value):,.2f}"
