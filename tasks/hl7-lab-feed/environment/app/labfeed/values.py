# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""OBX-5 values."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation


def parse_number(text: str) -> Decimal | None:
    """The number in OBX-5, or None for a text result."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def convert(value: Decimal, factor: float, decimals: int) -> str:
    return str(round(float(value) * factor, decimals))
