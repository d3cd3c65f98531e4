# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Money helpers: amounts arrive as strings such as "12.50" and are kept as numbers with two decimals."""

from __future__ import annotations


class MoneyError(ValueError):
    pass


def parse(text) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError) as exc:
        raise MoneyError(f"not an amount: {text!r}") from exc
    if value < 0:
        raise MoneyError(f"negative amount: {text!r}")
    return round(value, 2)


def discounted(subtotal: float, discount_pct: int) -> float:
    return round(subtotal * (100 - discount_pct) / 100, 2)


def text(value) -> float:
    return round(float(value), 2)
