# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading a loan-tape workbook: the loan sheet, the report parameters, the risk and segment tables."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from openpyxl import load_workbook

from .parsing import parse_amount, parse_basis, parse_date, parse_int, parse_rate

# Column names seen across vintages of the tape, by canonical field (compared case- and space-insensitively).
ALIASES = {
    "loan_id": ["loan id", "loanid"],
    "product": ["product"],
    "type": ["facility type"],
    "orig": ["origination date"],
    "maturity": ["maturity date"],
    "principal": ["original principal"],
    "limit": ["limit"],
    "balance": ["current balance"],
    "rate": ["interest rate (%)"],
    "basis": ["day count"],
    "last_paid": ["last payment date"],
    "dpd": ["days past due"],
    "holiday": ["holiday months"],
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
    """The header is the first row with more than one filled cell (the title rows above have one)."""
    for i, row in enumerate(rows):
        if sum(v is not None for v in row) > 1:
            cols = _column_map(row)
            if not all(k in cols for k in REQUIRED):
                raise ValueError(f"header row {i + 1} lacks columns: {[k for k in REQUIRED if k not in cols]}")
            return i, cols
    raise ValueError("no header row")


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
        if get(row, "orig") is None:
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
    if total is None:
        total = round(sum(l.balance for l in loans), 2)
    return Tape(report_date=parse_date(params["report date"]), ccf=float(params["ccf revolving"]), loans=loans,
                tape_total=total, risk=risk, segments=segments)
