# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""LedgerConfig: the explicit settings object of ledgerlib 2 (replaces the global ledgerlib.config of 1.x)."""

import datetime as _dt
import re
from dataclasses import dataclass

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}
ROUNDINGS = ("half_even", "half_up", "down")
NEGATIVE_STYLES = ("parens", "minus")
_OFFSET = re.compile(r"([+-])(\d{2}):(\d{2})")


@dataclass(frozen=True)
class LedgerConfig:
    currency: str = "USD"
    rounding: str = "half_even"
    tz: str = "UTC"
    negative_style: str = "parens"
    thousands_sep: str = ","

    def __post_init__(self):
        if self.currency not in SYMBOLS:
            raise ValueError(f"unsupported currency {self.currency!r}")
        if self.rounding not in ROUNDINGS:
            raise ValueError(f"rounding must be one of {ROUNDINGS}, got {self.rounding!r}")
        if self.negative_style not in NEGATIVE_STYLES:
            raise ValueError(f"negative_style must be one of {NEGATIVE_STYLES}, got {self.negative_style!r}")
        self.tzinfo  # validates tz

    @property
    def symbol(self):
        return SYMBOLS[self.currency]

    @property
    def tzinfo(self):
        if self.tz == "UTC":
            return _dt.timezone.utc
        m = _OFFSET.fullmatch(self.tz)
        if not m:
            raise ValueError(f"tz must be 'UTC' or '+HH:MM', got {self.tz!r}")
        delta = _dt.timedelta(hours=int(m[2]), minutes=int(m[3]))
        return _dt.timezone(-delta if m[1] == "-" else delta)
