# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""invctl -- inventory and billing for small shops, built on the in-house ledgerlib."""

__version__ = "3.2.0"
