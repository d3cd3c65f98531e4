# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The portfolio report: per loan, per segment, per bucket, and the balance reconciliation."""
from __future__ import annotations

from . import risk
from .money import cents
from .schedule import monthly_payment, months_between
from .tape import Tape


def build_report(tape: Tape) -> dict:
    loans = {}
    segments = {s: {"count": 0, "balance": 0.0, "ead": 0.0, "expected_loss": 0.0} for s in tape.risk}
    buckets = {b: {"count": 0, "balance": 0.0} for b in risk.BUCKETS}
    for loan in tape.loans:
        seg = risk.segment_of(loan, tape)
        bkt = risk.bucket(loan.dpd)
        accrued = risk.accrued_interest(loan, tape)
        exposure = risk.ead(loan, tape, accrued)
        el = risk.expected_loss(seg, bkt, exposure, tape)
        pay = None if loan.revolving else monthly_payment(
            loan.principal, loan.rate, months_between(loan.orig, loan.maturity), loan.holiday)
        loans[loan.loan_id] = {"segment": seg, "bucket": bkt, "monthly_payment": pay, "accrued_interest": accrued,
                               "ead": exposure, "expected_loss": el}
        s = segments[seg]
        s["count"] += 1
        s["balance"] += loan.balance
        s["ead"] += exposure
        s["expected_loss"] += el
        buckets[bkt]["count"] += 1
        buckets[bkt]["balance"] += loan.balance
    for s in segments.values():
        for k in ("balance", "ead", "expected_loss"):
            s[k] = cents(round(s[k], 6))
    for b in buckets.values():
        b["balance"] = cents(round(b["balance"], 6))
    computed = cents(round(sum(l.balance for l in tape.loans), 6))
    total = tape.tape_total
    return {"report_date": tape.report_date.isoformat(), "loans": loans, "segments": segments, "buckets": buckets,
            "reconciliation": {"tape_total": total, "computed_total": computed,
                               "difference": None if total is None else cents(round(computed - total, 6))}}


def write_workbook(report: dict, path) -> None:
    """The same report as a workbook (sheets Loans, Segments, Buckets, Reconciliation) for the credit committee."""
    from openpyxl import Workbook
    wb = Workbook()
    ws = wb.active
    ws.title = "Loans"
    ws.append(["Loan ID", "Segment", "Bucket", "Monthly payment", "Accrued interest", "EAD", "Expected loss"])
    for lid, l in report["loans"].items():
        ws.append([lid, l["segment"], l["bucket"], l["monthly_payment"], l["accrued_interest"], l["ead"], l["expected_loss"]])
    ws = wb.create_sheet("Segments")
    ws.append(["Segment", "Count", "Balance", "EAD", "Expected loss"])
    for seg, s in report["segments"].items():
        ws.append([seg, s["count"], s["balance"], s["ead"], s["expected_loss"]])
    ws = wb.create_sheet("Buckets")
    ws.append(["Bucket", "Count", "Balance"])
    for b, s in report["buckets"].items():
        ws.append([b, s["count"], s["balance"]])
    ws = wb.create_sheet("Reconciliation")
    for k, v in report["reconciliation"].items():
        ws.append([k, v])
    wb.save(path)
