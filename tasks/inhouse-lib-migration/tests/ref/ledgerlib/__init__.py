# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""ledgerlib 1.4 -- in-house bookkeeping helpers (money, dates, journal)."""

from ledgerlib import config
from ledgerlib.dates import add_days, days_between, fmt_date, parse_date
from ledgerlib.errors import LedgerError, UnbalancedEntry, UnknownAccount, ValidationError
from ledgerlib.journal import Journal
from ledgerlib.money import allocate, apply_rate, divide, fmt_money, parse_money, round_money
from ledgerlib.util import next_id

__version__ = "1.4.2"
__all__ = [
    "Journal", "LedgerError", "UnbalancedEntry", "UnknownAccount", "ValidationError", "add_days", "allocate",
    "apply_rate", "config", "days_between", "divide", "fmt_date", "fmt_money", "next_id", "parse_date",
    "parse_money", "round_money",
]
