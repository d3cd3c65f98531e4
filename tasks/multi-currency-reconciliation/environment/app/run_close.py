# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Month-end close run of the treasury team:  python3 run_close.py   (reads sample/, writes out/)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from recon.fx import Rates  # noqa: E402
from recon.ledger import read_ledger  # noqa: E402
from recon.matching import match  # noqa: E402
from recon.report import write_outputs  # noqa: E402
from recon.statements import read_all  # noqa: E402


def main(statements_dir, ledger_path, rates_path, out_dir):
    lines, currencies = read_all(Path(statements_dir))
    ledger = read_ledger(ledger_path)
    rates = Rates(rates_path)
    status, used = match(lines, ledger, rates, currencies)
    write_outputs(Path(out_dir), lines, ledger, status, used, rates, currencies)


if __name__ == "__main__":
    main("sample/statements", "sample/ledger.csv", "sample/rates.csv", "out")
