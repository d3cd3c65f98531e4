#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold solution, but every loan accrues on ACT/360 whatever its basis (the 30/360 book ignored).
set -euo pipefail
bash /solution/gold/solve.sh
cat > /app/portfolio/daycount.py <<'PY'
def year_fraction(basis, start, end):
    return (end - start).days / 360
PY
