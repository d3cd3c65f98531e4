# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Process-wide settings of ledgerlib 1.x (call configure() once at start-up)."""

_SETTINGS = {"currency": "USD", "rounding": "half_up"}


def configure(**settings):
    for key, value in settings.items():
        if key not in _SETTINGS:
            raise KeyError(f"unknown ledgerlib setting {key!r}")
        _SETTINGS[key] = value


def get(key):
    return _SETTINGS[key]
