# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own reference: the report a correct program prints for a generated spec (from plain data)."""
from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal



def cents(x) -> float:
    return float(Decimal(repr(x) if isinstance(x, float) else str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def months_between(a: dt.date, b: dt.date) -> int:
    return (b.year - a.year) * 12 + (b.month - a.month)


def year_frac(basis: str, d1: dt.date, d2: dt.date) -> float:
    if basis == "ACT/360":
        return (d2 - d1).days / 360
    day1, day2 = d1.day, d2.day
    if day1 == 31:
        day1 = 30
    if day2 == 31 and day1 >= 30:
        day2 = 30
    return (360 * (d2.year - d1.year) + 30 * (d2.month - d1.month) + (day2 - day1)) / 360


def payment(loan) -> float:
    n = months_between(loan["orig"], loan["maturity"])
    h = loan["holiday"]
    r = loan["rate"] / 100 / 12
    p = loan["principal"] * (1 + r) ** h
    k = n - h
    if r == 0:
        return cents(p / k)
    return cents(p * r / (1 - (1 + r) ** -k))


def bucket(dpd: int) -> str:
    return "current" if dpd < 30 else "30" if dpd < 60 else "60" if dpd < 90 else "90+"


def report(spec: dict) -> dict:
    loans = {}
    segs = {s: {"count": 0, "balance": 0.0, "ead": 0.0, "expected_loss": 0.0} for s in spec["risk"]}
    bks = {b: {"count": 0, "balance": 0.0} for b in ("current", "30", "60", "90+")}
    for loan in spec["loans"]:
        seg = spec["segments"][loan["product"]]
        b = bucket(loan["dpd"])
        accrued = cents(loan["balance"] * loan["rate"] / 100 * year_frac(loan["basis"], loan["last_paid"], spec["report_date"]))
        if loan["type"] == "Revolving":
            pay = None
            ead = cents(loan["balance"] + accrued + spec["ccf"] * max(loan["limit"] - loan["balance"], 0.0))
        else:
            pay = payment(loan)
            ead = cents(loan["balance"] + accrued)
        t = spec["risk"][seg]
        el = cents(t[b] * t["lgd"] * ead)
        loans[loan["loan_id"]] = {"segment": seg, "bucket": b, "monthly_payment": pay, "accrued_interest": accrued,
                                  "ead": ead, "expected_loss": el}
        s = segs[seg]
        s["count"] += 1
        s["balance"] += loan["balance"]
        s["ead"] += ead
        s["expected_loss"] += el
        bks[b]["count"] += 1
        bks[b]["balance"] += loan["balance"]
    for s in segs.values():
        for k in ("balance", "ead", "expected_loss"):
            s[k] = cents(round(s[k], 6))
    for s in bks.values():
        s["balance"] = cents(round(s["balance"], 6))
    computed = cents(round(sum(l["balance"] for l in spec["loans"]), 6))
    return {"report_date": spec["report_date"].isoformat(), "loans": loans, "segments": segs, "buckets": bks,
            "reconciliation": {"tape_total": spec["tape_total"], "computed_total": computed,
                               "difference": cents(round(computed - spec["tape_total"], 6))}}
