#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: a rewritten reconcile.py (all four bank formats incl. XLSX and MT940-like .sta text with
# continuation lines and RC/RD marks, value dates, decimal-comma amounts,
# case-insensitive references, de-duplication by transaction id, reversal pairs, group matching over
# linked references (bulk remittances) with split payments and netted fees, FX at the ledger entry's date with the last earlier
# rate, half-up cents, sorted outputs), run on the sample.
set -euo pipefail
cp /solution/reconcile.py /app/reconcile.py
cd /app
python3 reconcile.py sample/statements sample/ledger.csv sample/rates.csv /tmp/close-out
cat /tmp/close-out/summary.json
