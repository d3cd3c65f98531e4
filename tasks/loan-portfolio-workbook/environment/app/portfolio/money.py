# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Rounding of money amounts."""
from __future__ import annotations


def cents(x: float) -> float:
    """Round to cents."""
    return round(float(x), 2)
