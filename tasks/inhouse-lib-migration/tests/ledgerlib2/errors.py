# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Exceptions of ledgerlib 2.

Parsing errors are now ValueError subclasses (they are no longer LedgerError); LedgerError is reserved for
bookkeeping problems.
"""


class LedgerError(Exception):
    """Base class of bookkeeping errors (journal, accounts)."""


class ImbalanceError(LedgerError):
    """A journal entry whose splits do not sum to zero (was UnbalancedEntry in 1.x)."""


class UnknownAccount(LedgerError):
    """An account name that is not in the chart of accounts."""


class JournalFormatError(LedgerError):
    """A journal file in a format this version does not read (without upgrade=True)."""


class MoneyFormatError(ValueError):
    """Text that is not a plain decimal amount."""


class DateFormatError(ValueError):
    """Text that is not an ISO 8601 calendar date."""
