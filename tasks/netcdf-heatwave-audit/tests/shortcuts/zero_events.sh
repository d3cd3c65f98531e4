#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold reader and regional means (so mean_tmax is right) but no heatwave detection at all: zero events everywhere.
set -euo pipefail
bash /solution/gold/solve.sh
cat >> /app/hwaudit/spells.py <<'PY'


def find_spells(hot, min_length):
    return []
PY
