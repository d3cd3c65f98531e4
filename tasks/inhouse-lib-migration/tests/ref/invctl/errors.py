# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Errors of invctl itself (ledgerlib errors are translated in cli.py)."""


class UserError(Exception):
    """A command that cannot be carried out; the message is shown to the user."""


class NotFound(UserError):
    pass


class StockError(UserError):
    pass


class CreditError(UserError):
    pass
