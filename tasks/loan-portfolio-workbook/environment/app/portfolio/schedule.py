# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Level-payment amortization with an optional payment holiday at the start."""
from __future__ import annotations

import datetime as dt

from .money import cents


def months_between(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + (end.month - start.month)


def monthly_payment(principal: float, rate_pct: float, term_months: int, holiday_months: int = 0) -> float:
    r = rate_pct / 100 / 12
    return cents(principal * r / (1 - (1 + r) ** -term_months))


def schedule(principal: float, rate_pct: float, term_months: int, holiday_months: int = 0) -> list[dict]:
    """Rows of (month, payment, interest, principal, balance); the last payment clears the balance."""
    r = rate_pct / 100 / 12
    pay = monthly_payment(principal, rate_pct, term_months, holiday_months)
    balance = principal
    rows = []
    for month in range(1, term_months + 1):
        interest = cents(balance * r)
        if month <= holiday_months:
            balance = cents(balance + interest)
            rows.append({"month": month, "payment": 0.0, "interest": interest, "principal": 0.0, "balance": balance})
            continue
        amount = pay if month < term_months else cents(balance + interest)
        repaid = cents(amount - interest)
        balance = cents(balance - repaid)
        rows.append({"month": month, "payment": amount, "interest": interest, "principal": repaid, "balance": balance})
    return rows
