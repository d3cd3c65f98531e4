#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes only the output unit conversion and the "2A" spelling of coefficients. Repeated
# species, rate-constant units, the Jacobian, step rejection and late first output times stay broken.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("kinetics/cli.py")
p.write_text(p.read_text().replace("[float(v) * cf for v in states[:, i]]", "[float(v) / cf for v in states[:, i]]"))
p = Path("kinetics/mechanism.py")
p.write_text(p.read_text().replace('(?:(\\d+)\\s+)?([A-Za-z0-9_()]+)', '(\\d+)?\\s*([A-Za-z][A-Za-z0-9_()]*)'))
PY
grep -n "_TERM = " kinetics/mechanism.py
python3 -m pytest -q /app/tests || true
