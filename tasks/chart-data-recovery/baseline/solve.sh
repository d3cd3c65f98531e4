#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the inverted y axis and takes the middle of the series pixels in a column instead of the
# topmost one. Log axes, colour spellings, noise, legends, bars and rounding stay broken.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("digitizer/calibrate.py")
p.write_text(p.read_text().replace("frac = (row - a.top) / (a.bottom - a.top)", "frac = (a.bottom - row) / (a.bottom - a.top)"))
p = Path("digitizer/lines.py")
p.write_text(p.read_text().replace("    return float(rows.min())", "    return float(rows.mean()) + 0.5"))
PY
python3 -m pytest -q /app/tests || true
