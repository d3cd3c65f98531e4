# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""syncaudit: measure audio/video synchronisation of test-pattern clips (beeps and flashes)."""

__version__ = "0.4.0"
