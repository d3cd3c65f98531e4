# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""ledgerlib 2 -- in-house bookkeeping helpers (money in integer cents, aware dates, journal).

See CHANGELOG.md (installed in /usr/local/share/doc/ledgerlib/) for the changes from 1.x.
"""

from ledgerlib.config import LedgerConfig
from ledgerlib.dates import add_days, days_between, fmt_date, parse_date
from ledgerlib.errors import (
    DateFormatError,
    ImbalanceError,
    JournalFormatError,
    LedgerError,
    MoneyFormatError,
    UnknownAccount,
)
from ledgerlib.journal import Journal, Split
from ledgerlib.money import allocate, apply_rate, divide, format_money, parse_money

__version__ = "2.0.0"
__all__ = [
    "DateFormatError", "ImbalanceError", "Journal", "JournalFormatError", "LedgerConfig", "LedgerError",
    "MoneyFormatError", "Split", "UnknownAccount", "add_days", "allocate", "apply_rate", "days_between", "divide",
    "fmt_date", "format_money", "parse_date", "parse_money",
]
