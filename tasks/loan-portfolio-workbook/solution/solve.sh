#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: rewrite the defective modules (header detection over merged rows, every vintage's column
# names, totals row as the control total, Excel serials from 1899-12-30 and D/M/Y text, amounts with symbols
# and separators, ACT/360 and 30/360, half-up cents, holidays and zero rates, buckets, segment lookup, CCF EAD).
set -euo pipefail
cd /app
cat > /app/portfolio/parsing.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cell value parsing: dates, amounts, rates, day-count names."""
from __future__ import annotations

import datetime as dt
import re

EXCEL_EPOCH = dt.date(1899, 12, 30)  # serial 1 = 1900-01-01 once Excel's phantom 1900-02-29 is allowed for
MONTHS = {m: i for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}


class ParseError(ValueError):
    pass


def parse_date(value) -> dt.date:
    """A date from a datetime cell, an Excel serial number or text (D/M/Y, ISO, 15-Mar-2023, 15.03.2023)."""
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return EXCEL_EPOCH + dt.timedelta(days=int(value))
    if not isinstance(value, str):
        raise ParseError(f"not a date: {value!r}")
    text = value.strip()
    if re.fullmatch(r"\d+(\.\d+)?", text):
        return EXCEL_EPOCH + dt.timedelta(days=int(float(text)))
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if m:
        return dt.date(int(m[1]), int(m[2]), int(m[3]))
    m = re.fullmatch(r"(\d{1,2})[/.](\d{1,2})[/.](\d{4})", text)
    if m:
        return dt.date(int(m[3]), int(m[2]), int(m[1]))
    m = re.fullmatch(r"(\d{1,2})[- ]([A-Za-z]{3})[A-Za-z]*[- ](\d{4})", text)
    if m and m[2].lower() in MONTHS:
        return dt.date(int(m[3]), MONTHS[m[2].lower()], int(m[1]))
    raise ParseError(f"not a date: {value!r}")


def parse_amount(value) -> float | None:
    """A money amount from a number or text such as "$1,234.50", "USD 1,234.50", "1,234.50"; None if empty."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    text = str(value).strip()
    if not text:
        return None
    negative = text.startswith("(") and text.endswith(")")
    text = re.sub(r"[A-Za-z$€£()\s]", "", text).replace(",", "")
    if not text:
        return None
    number = float(text)
    return -number if negative else number


def parse_rate(value) -> float:
    """An annual rate in percent points: 5.25 and "5.25%" both mean 5.25 %."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return float(str(value).strip().rstrip("%").strip())


def parse_basis(value) -> str:
    text = str(value or "").strip().upper().replace(" ", "")
    if text in ("ACT/360", "ACTUAL/360", "A/360"):
        return "ACT/360"
    if text in ("30/360", "30/360US", "BOND"):
        return "30/360"
    raise ParseError(f"unknown day count {value!r}")


def parse_int(value) -> int:
    if value is None or (isinstance(value, str) and not value.strip()):
        return 0
    return int(float(str(value).strip()))
PYEOF
cat > /app/portfolio/daycount.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Day-count conventions."""
from __future__ import annotations

import datetime as dt


def year_fraction(basis: str, start: dt.date, end: dt.date) -> float:
    if basis == "ACT/360":
        return (end - start).days / 360
    if basis == "30/360":
        d1, d2 = start.day, end.day
        if d1 == 31:
            d1 = 30
        if d2 == 31 and d1 >= 30:
            d2 = 30
        return (360 * (end.year - start.year) + 30 * (end.month - start.month) + (d2 - d1)) / 360
    raise ValueError(f"unknown basis {basis}")
PYEOF
cat > /app/portfolio/money.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Rounding of money amounts."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def cents(x: float) -> float:
    """Round to cents, halves away from zero (the report's rule), on the shortest repr of the float."""
    return float(Decimal(repr(float(x))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
PYEOF
cat > /app/portfolio/schedule.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Level-payment amortization with an optional payment holiday at the start."""
from __future__ import annotations

import datetime as dt

from .money import cents


def months_between(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + (end.month - start.month)


def monthly_payment(principal: float, rate_pct: float, term_months: int, holiday_months: int = 0) -> float:
    r = rate_pct / 100 / 12
    grown = principal * (1 + r) ** holiday_months  # interest capitalised monthly during the holiday
    k = term_months - holiday_months
    if k <= 0:
        raise ValueError("holiday longer than the term")
    if r == 0:
        return cents(grown / k)
    return cents(grown * r / (1 - (1 + r) ** -k))


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
PYEOF
cat > /app/portfolio/tape.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading a loan-tape workbook: the loan sheet, the report parameters, the risk and segment tables."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from openpyxl import load_workbook

from .parsing import parse_amount, parse_basis, parse_date, parse_int, parse_rate

# Column names seen across vintages of the tape, by canonical field (compared case- and space-insensitively).
ALIASES = {
    "loan_id": ["loan id", "loanid", "account no", "loan number"],
    "product": ["product", "prod code", "product code"],
    "type": ["facility type", "type", "facility"],
    "orig": ["origination date", "start date", "booked"],
    "maturity": ["maturity date", "end date", "maturity"],
    "principal": ["original principal", "orig amount", "principal"],
    "limit": ["limit", "credit limit", "committed limit"],
    "balance": ["current balance", "outstanding", "balance o/s"],
    "rate": ["interest rate (%)", "coupon", "rate"],
    "basis": ["day count", "basis", "dcc"],
    "last_paid": ["last payment date", "interest paid to", "paid to"],
    "dpd": ["days past due", "dpd", "arrears days"],
    "holiday": ["holiday months", "payment holiday (months)", "holiday"],
}
REQUIRED = ["loan_id", "product", "orig", "maturity", "balance", "rate", "basis", "last_paid", "dpd"]
TOTAL_MARKERS = ("total", "subtotal", "grand total")


@dataclass
class Loan:
    loan_id: str
    product: str
    revolving: bool
    orig: dt.date
    maturity: dt.date
    principal: float | None
    limit: float | None
    balance: float
    rate: float
    basis: str
    last_paid: dt.date
    dpd: int
    holiday: int


@dataclass
class Tape:
    report_date: dt.date
    ccf: float
    loans: list[Loan]
    tape_total: float | None
    risk: dict[str, dict[str, float]] = field(default_factory=dict)
    segments: dict[str, str] = field(default_factory=dict)


def _norm(value) -> str:
    return " ".join(str(value).strip().lower().split()) if value is not None else ""


def _column_map(row) -> dict[str, int]:
    found = {}
    for j, cell in enumerate(row):
        name = _norm(cell)
        for key, names in ALIASES.items():
            if name in names and key not in found:
                found[key] = j
    return found


def find_header(rows: list[tuple]) -> tuple[int, dict[str, int]]:
    """The first row naming every required column (title rows and merged group headers above it are skipped)."""
    for i, row in enumerate(rows):
        cols = _column_map(row)
        if all(k in cols for k in REQUIRED):
            return i, cols
    raise ValueError("no header row with the required columns")


def _is_total(row, cols) -> bool:
    first = _norm(row[cols["loan_id"]])
    return any(first.startswith(m) for m in TOTAL_MARKERS)


def read_loans(ws) -> tuple[list[Loan], float | None]:
    rows = list(ws.iter_rows(values_only=True))
    start, cols = find_header(rows)
    loans, total = [], None
    get = lambda row, key: row[cols[key]] if key in cols and cols[key] < len(row) else None
    for row in rows[start + 1:]:
        if all(v is None or (isinstance(v, str) and not v.strip()) for v in row):
            continue
        if _is_total(row, cols):
            total = parse_amount(get(row, "balance"))
            continue
        kind = _norm(get(row, "type"))
        limit = parse_amount(get(row, "limit"))
        revolving = kind in ("revolving", "rcf", "revolver", "card") or (not kind and limit is not None)
        loans.append(Loan(
            loan_id=str(get(row, "loan_id")).strip(), product=_norm(get(row, "product")).upper(),
            revolving=revolving, orig=parse_date(get(row, "orig")), maturity=parse_date(get(row, "maturity")),
            principal=parse_amount(get(row, "principal")), limit=limit, balance=parse_amount(get(row, "balance")) or 0.0,
            rate=parse_rate(get(row, "rate")), basis=parse_basis(get(row, "basis")),
            last_paid=parse_date(get(row, "last_paid")), dpd=parse_int(get(row, "dpd")),
            holiday=parse_int(get(row, "holiday"))))
    return loans, total


def _loan_sheet(wb):
    for ws in wb.worksheets:
        try:
            find_header(list(ws.iter_rows(values_only=True, max_row=30)))
            return ws
        except ValueError:
            continue
    raise ValueError("no loan sheet")


def read_tape(path) -> Tape:
    wb = load_workbook(path, data_only=True)
    loans, total = read_loans(_loan_sheet(wb))
    params = {_norm(r[0]): r[1] for r in wb["Parameters"].iter_rows(min_row=2, values_only=True) if r and r[0]}
    risk = {}
    for r in wb["Risk"].iter_rows(min_row=2, values_only=True):
        if r and r[0]:
            risk[str(r[0]).strip()] = {"current": float(r[1]), "30": float(r[2]), "60": float(r[3]),
                                       "90+": float(r[4]), "lgd": float(r[5])}
    segments = {_norm(r[0]).upper(): str(r[1]).strip()
                for r in wb["Segments"].iter_rows(min_row=2, values_only=True) if r and r[0]}
    return Tape(report_date=parse_date(params["report date"]), ccf=float(params["ccf revolving"]), loans=loans,
                tape_total=total, risk=risk, segments=segments)
PYEOF
cat > /app/portfolio/risk.py <<'PYEOF'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Delinquency buckets, exposure at default and expected loss."""
from __future__ import annotations

from .daycount import year_fraction
from .money import cents
from .tape import Loan, Tape

BUCKETS = ("current", "30", "60", "90+")


def bucket(dpd: int) -> str:
    if dpd >= 90:
        return "90+"
    if dpd >= 60:
        return "60"
    if dpd >= 30:
        return "30"
    return "current"


def accrued_interest(loan: Loan, tape: Tape) -> float:
    return cents(loan.balance * loan.rate / 100 * year_fraction(loan.basis, loan.last_paid, tape.report_date))


def ead(loan: Loan, tape: Tape, accrued: float) -> float:
    if loan.revolving:
        undrawn = max((loan.limit or 0.0) - loan.balance, 0.0)
        return cents(loan.balance + accrued + tape.ccf * undrawn)
    return cents(loan.balance + accrued)


def segment_of(loan: Loan, tape: Tape) -> str:
    return tape.segments[loan.product]


def expected_loss(segment: str, bkt: str, exposure: float, tape: Tape) -> float:
    table = tape.risk[segment]
    return cents(table[bkt] * table["lgd"] * exposure)
PYEOF
find /app -name __pycache__ -prune -exec rm -rf {} +
