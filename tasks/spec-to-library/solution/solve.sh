#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the fixed recur package (T-separated output, date-only UNTIL at 23:59:59, negative
# BYMONTHDAY, correct negative BYDAY ordinals, yearly ordinals within the year, no month-end clamping,
# BYSETPOS, WKST and weekly INTERVAL, COUNT before EXDATE, the invalid-combination checks, strict N).
set -euo pipefail
cp /solution/recur/*.py /app/recur/
cd /app
python3 -m pytest -q -p no:cacheprovider tests
