# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Delinquency buckets, exposure at default and expected loss."""
from __future__ import annotations

from .daycount import year_fraction
from .money import cents
from .tape import Loan, Tape

BUCKETS = ("current", "30", "60", "90+")
SEGMENT_OF = {"MTG-FIX": "Mortgage", "MTG-VAR": "Mortgage", "AUTO": "Consumer", "PL": "Consumer", "SME-T": "SME"}


def bucket(dpd: int) -> str:
    if dpd > 90:
        return "90+"
    if dpd > 60:
        return "60"
    if dpd > 30:
        return "30"
    return "current"


def accrued_interest(loan: Loan, tape: Tape) -> float:
    return cents(loan.balance * loan.rate / 100 * year_fraction(loan.basis, loan.last_paid, tape.report_date))


def ead(loan: Loan, tape: Tape, accrued: float) -> float:
    if loan.revolving:
        return cents((loan.limit or loan.balance) + accrued)
    return cents(loan.balance + accrued)


def segment_of(loan: Loan, tape: Tape) -> str:
    # segment by product family (the Segments sheet of the tape is not read yet)
    return SEGMENT_OF.get(loan.product, "Consumer")


def expected_loss(segment: str, bkt: str, exposure: float, tape: Tape) -> float:
    table = tape.risk[segment]
    return cents(table[bkt] * table["lgd"] * exposure)
