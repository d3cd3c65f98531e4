# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""python3 /app/loanreport.py TAPE.xlsx [--xlsx OUT.xlsx]: prints the portfolio report as JSON on stdout."""
from __future__ import annotations

import argparse
import json
import sys

from portfolio.report import build_report, write_workbook
from portfolio.tape import read_tape


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("tape")
    ap.add_argument("--xlsx", help="also write the report workbook here")
    args = ap.parse_args(argv)
    report = build_report(read_tape(args.tape))
    if args.xlsx:
        write_workbook(report, args.xlsx)
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
