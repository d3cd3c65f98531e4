#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: accrues everything on ACT/360, rounds half-up, fixes the bucket boundaries and reads the
# Segments sheet. Header detection, other vintages, text cells, 30/360, holidays, zero rates, revolvers and the
# control total stay broken.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
def sub(path, old, new):
    p = Path(path)
    p.write_text(p.read_text().replace(old, new))
sub("portfolio/daycount.py", "return (end - start).days / 365", "return (end - start).days / 360")
sub("portfolio/money.py", "    return round(float(x), 2)",
    "    from decimal import ROUND_HALF_UP, Decimal\n    return float(Decimal(repr(float(x))).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP))")
for n in ("90", "60", "30"):
    sub("portfolio/risk.py", f"if dpd > {n}:", f"if dpd >= {n}:")
sub("portfolio/risk.py", 'return SEGMENT_OF.get(loan.product, "Consumer")', "return tape.segments[loan.product]")
PY
