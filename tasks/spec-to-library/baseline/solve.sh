#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the output format only; leaves negative BYMONTHDAY, negative BYDAY ordinals, date-only
# UNTIL, BYSETPOS, WKST/weekly INTERVAL, COUNT vs EXDATE, yearly ordinals, month-end clamping and validation
# as they were.
set -euo pipefail
cp /solution/recur/*.py /app/recur/
cd /app
python3 -m pytest -q -p no:cacheprovider tests || true
