# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Generator of messy loan-tape workbooks (public examples at build time, hidden cases at verify time).

make_spec(rng, **knobs) draws a tape as plain data; write_workbook(spec, path) writes it as a messy xlsx.
"""
from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path

PUBLIC_SEED = 41017
PUBLIC_CASES = [("tape_2022q4", {}), ("tape_2023q2", {"vintage": 1, "text_dates": True}),
                ("tape_2024q1", {"vintage": 2, "revolvers": True, "day_count": True, "holidays": True})]

VINTAGES = [
    {"loan_id": "Loan ID", "product": "Product", "type": "Facility Type", "orig": "Origination Date",
     "maturity": "Maturity Date", "principal": "Original Principal", "limit": "Limit", "balance": "Current Balance",
     "rate": "Interest Rate (%)", "basis": "Day Count", "last_paid": "Last Payment Date", "dpd": "Days Past Due",
     "holiday": "Holiday Months"},
    {"loan_id": "Account No", "product": "Prod Code", "type": "Type", "orig": "Start Date", "maturity": "End Date",
     "principal": "Orig Amount", "limit": "Credit Limit", "balance": "Outstanding", "rate": "Coupon",
     "basis": "Basis", "last_paid": "Interest Paid To", "dpd": "DPD", "holiday": "Payment Holiday (months)"},
    {"loan_id": "Loan Number", "product": "Product Code", "type": "Facility", "orig": "Booked", "maturity": "Maturity",
     "principal": "Principal", "limit": "Committed Limit", "balance": "Balance O/S", "rate": "Rate",
     "basis": "DCC", "last_paid": "Paid To", "dpd": "Arrears Days", "holiday": "Holiday"},
]
PRODUCTS = {"MTG-FIX": "Mortgage", "MTG-VAR": "Mortgage", "AUTO": "Consumer", "PL": "Consumer",
            "SME-T": "SME", "CARD": "Cards", "RCF": "SME"}
SEGMENTS = ["Mortgage", "Consumer", "SME", "Cards"]


def _date(rng, start: dt.date, days: int) -> dt.date:
    return start + dt.timedelta(days=int(rng.random() * days))


def _add_months(d: dt.date, n: int, month_end: bool) -> dt.date:
    y, m = divmod(d.month - 1 + n, 12)
    y, m = d.year + y, m + 1
    last = (dt.date(y + m // 12, m % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(y, m, last if month_end else min(d.day, last))


def make_spec(rng: random.Random, vintage: int = 0, text_dates: bool = False, day_count: bool = False,
              holidays: bool = False, revolvers: bool = False, zero_rate: bool = False, reorder: bool = False,
              totals_mismatch: bool = False, n_loans: int = 24) -> dict:
    report = _add_months(dt.date(2023, 1, 31), int(rng.random() * 18), True)
    if rng.random() < 0.3:
        report = dt.date(2024, 2, 29)
    pd_table = {}
    for seg in SEGMENTS:
        base = round(0.005 + rng.random() * 0.03, 4)
        pd_table[seg] = {"current": base, "30": round(base * 4, 4), "60": round(min(0.9, base * 10), 4), "90+": 1.0,
                         "lgd": round(0.1 + rng.random() * 0.6, 3)}
    ccf = round(0.5 + rng.random() * 0.4, 2)
    segments = dict(PRODUCTS)  # this book's mapping (desks move products between segments)
    segments["MTG-VAR"] = stress_pick(rng, ["Mortgage", "Consumer"])
    segments["PL"] = stress_pick(rng, ["Consumer", "Cards"])
    segments["RCF"] = stress_pick(rng, ["SME", "Cards"])
    if segments["MTG-VAR"] == "Mortgage" and segments["PL"] == "Consumer":
        segments["AUTO"] = "SME"
    loans = []
    used = set()
    for i in range(n_loans):
        revolving = revolvers and i % 3 == 0
        product = ("CARD" if i % 2 else "RCF") if revolving else stress_pick(rng, ["MTG-FIX", "MTG-VAR", "AUTO", "PL", "SME-T"])
        while True:
            lid = f"L{int(rng.random() * 900000) + 100000}"
            if lid not in used:
                used.add(lid)
                break
        term = stress_pick(rng, [12, 24, 36, 48, 60, 120, 240])
        month_end = day_count and i % 2 == 0
        orig = _add_months(report, -int(1 + rng.random() * min(term - 1, 60)), month_end)
        if not month_end:
            orig = orig.replace(day=min(orig.day, 28)) if rng.random() < 0.5 else orig
        maturity = _add_months(orig, term, month_end)
        principal = round(1000 + rng.random() * 250000, 2)
        rate = round(rng.random() * 12 + 1, 2)
        if zero_rate and i % 4 == 1:
            rate = 0.0
        basis = ("30/360" if i % 2 else "ACT/360") if day_count else "ACT/360"
        last_paid = _add_months(report, -1, month_end) if rng.random() < 0.7 else _add_months(report, -int(1 + rng.random() * 4), month_end)
        if month_end and i % 4 == 0:
            last_paid = _add_months(report, -1, True) - dt.timedelta(days=0)
        last_paid = max(last_paid, orig)
        r = rng.random()
        dpd = 0 if r < 0.45 else stress_pick(rng, [5, 29, 30, 31, 45, 59, 60, 61, 89, 90, 91, 150])
        holiday = stress_pick(rng, [0, 3, 6]) if holidays and i % 3 == 1 and not revolving else 0
        if revolving:
            limit = round(5000 + rng.random() * 50000, 2)
            balance = round(limit * rng.random(), 2)
            if i % 6 == 3:
                balance = limit
            loans.append(dict(loan_id=lid, product=product, type="Revolving", orig=orig, maturity=maturity,
                              principal=None, limit=limit, balance=balance, rate=rate, basis=basis,
                              last_paid=last_paid, dpd=dpd, holiday=0))
        else:
            balance = round(principal * (0.2 + rng.random() * 0.8), 2)
            loans.append(dict(loan_id=lid, product=product, type="Term", orig=orig, maturity=maturity,
                              principal=principal, limit=None, balance=balance, rate=rate, basis=basis,
                              last_paid=last_paid, dpd=dpd, holiday=holiday))
    total = round(sum(l["balance"] for l in loans), 2)
    if totals_mismatch:
        total = round(total + stress_pick(rng, [-1, 1]) * round(100 + rng.random() * 5000, 2), 2)
    cols = list(VINTAGES[vintage].keys())
    if reorder:
        head, rest = cols[:1], cols[1:]
        rest.sort(key=lambda c: rng.random())
        cols = head + rest
    style = {"vintage": vintage, "text_dates": text_dates, "cols": cols, "merged": vintage != 0 or reorder,
             "seed": int(rng.random() * 2**31)}
    return {"report_date": report, "ccf": ccf, "risk": pd_table, "segments": segments, "loans": loans, "tape_total": total,
            "style": style}


def stress_pick(rng, items):
    return items[int(rng.random() * len(items))]


def _fmt_date(rng, d: dt.date, text: bool):
    if not text:
        return d
    k = int(rng.random() * 5)
    if k == 0:
        return (d - dt.date(1899, 12, 30)).days          # Excel serial
    if k == 1:
        return d.strftime("%d/%m/%Y")
    if k == 2:
        return d.isoformat()
    if k == 3:
        return d.strftime("%d-%b-%Y")
    return d.strftime("%d.%m.%Y")


def _fmt_amount(rng, x: float, text: bool):
    if not text:
        return x
    k = int(rng.random() * 4)
    if k == 0:
        return x
    if k == 1:
        return f"${x:,.2f}"
    if k == 2:
        return f"{x:,.2f}"
    return f"USD {x:,.2f}"


def write_workbook(spec: dict, path) -> None:
    from openpyxl import Workbook
    st = spec["style"]
    rng = random.Random(st["seed"])
    names = VINTAGES[st["vintage"]]
    text = st["text_dates"]
    wb = Workbook()
    ws = wb.active
    ws.title = ["Loans", "Tape", "Loan Tape"][st["vintage"]]
    ncol = len(st["cols"])
    ws.cell(1, 1, "Loan tape - retail and SME book")
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=ncol)
    ws.cell(2, 1, "Confidential")
    row = 3
    if st["merged"]:
        ws.cell(3, 1, "Identification")
        ws.merge_cells(start_row=3, start_column=1, end_row=3, end_column=3)
        ws.cell(3, 4, "Terms and status")
        ws.merge_cells(start_row=3, start_column=4, end_row=3, end_column=ncol)
        row = 4
    for j, c in enumerate(st["cols"], 1):
        ws.cell(row, j, names[c])
    for loan in spec["loans"]:
        row += 1
        for j, c in enumerate(st["cols"], 1):
            v = loan[c]
            if c in ("orig", "maturity", "last_paid"):
                v = _fmt_date(rng, v, text)
            elif c in ("principal", "limit", "balance") and v is not None:
                v = _fmt_amount(rng, v, text)
            elif c == "rate" and text and rng.random() < 0.5:
                v = f"{v:.2f}%"
            elif c == "product" and text and rng.random() < 0.3:
                v = f" {v.lower()} "
            elif c == "basis" and v == "ACT/360" and rng.random() < 0.3:
                v = stress_pick(rng, ["Actual/360", "A/360"])
            elif c == "basis" and v == "30/360" and rng.random() < 0.3:
                v = stress_pick(rng, ["30/360 US", "Bond"])
            ws.cell(row, j, v)
    row += 2
    ws.cell(row, 1, "TOTAL" if rng.random() < 0.5 else "Total")
    ws.cell(row, st["cols"].index("balance") + 1, _fmt_amount(rng, spec["tape_total"], text))
    ps = wb.create_sheet("Parameters")
    ps.append(["Parameter", "Value"])
    ps.append(["Report date", _fmt_date(rng, spec["report_date"], text)])
    ps.append(["CCF revolving", spec["ccf"]])
    rs = wb.create_sheet("Risk")
    rs.append(["Segment", "PD current", "PD 30", "PD 60", "PD 90+", "LGD"])
    for seg, t in spec["risk"].items():
        rs.append([seg, t["current"], t["30"], t["60"], t["90+"], t["lgd"]])
    ss = wb.create_sheet("Segments")
    ss.append(["Product code", "Segment"])
    for p, s in spec["segments"].items():
        ss.append([p, s])
    wb.save(path)


def main(out: str) -> None:
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    for i, (stem, knobs) in enumerate(PUBLIC_CASES):
        write_workbook(make_spec(random.Random(PUBLIC_SEED + i), **knobs), out_dir / f"{stem}.xlsx")


if __name__ == "__main__":
    main(sys.argv[1])
