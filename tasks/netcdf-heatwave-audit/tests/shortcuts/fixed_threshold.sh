#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold pipeline with a climatology-free threshold: one percentile of all baseline days serves every calendar day.
set -euo pipefail
bash /solution/gold/solve.sh
cat >> /app/hwaudit/climatology.py <<'PY'


def thresholds(days, series, baseline, percentile, window):
    first, last = baseline
    values = np.array([v for (y, _m, _d), v in zip(days, series) if first <= y <= last and np.isfinite(v)])
    level = float(np.percentile(values, percentile))
    return {(m, d): level for _y, m, d in days}
PY
