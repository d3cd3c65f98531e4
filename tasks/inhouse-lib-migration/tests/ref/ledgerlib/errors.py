# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Exception hierarchy of ledgerlib 1.x: everything derives from LedgerError."""


class LedgerError(Exception):
    """Base class of every ledgerlib error."""


class ValidationError(LedgerError):
    """A value (amount, date, identifier) could not be parsed or is out of range."""


class UnbalancedEntry(LedgerError):
    """A journal entry whose debits and credits differ."""


class UnknownAccount(LedgerError):
    """An account name that is not in the chart of accounts."""
