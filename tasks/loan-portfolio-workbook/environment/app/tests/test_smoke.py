# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke test: python3 -m pytest /app/tests (if pytest is available) or python3 /app/tests/test_smoke.py."""
import json
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1]


def test_first_example_runs():
    out = subprocess.run([sys.executable, str(APP / "loanreport.py"), str(APP / "examples" / "tape_2022q4.xlsx")],
                         capture_output=True, text=True, check=True, cwd=APP)
    report = json.loads(out.stdout)
    assert set(report) == {"report_date", "loans", "segments", "buckets", "reconciliation"}


if __name__ == "__main__":
    test_first_example_runs()
    print("ok")
