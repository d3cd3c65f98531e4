#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold program with the time loop skipped: particles come back as they went in, energies frozen
set -euo pipefail
bash /solution/gold/solve.sh >/dev/null
cd /app/pm2d
python3 - <<'PY'
from pathlib import Path
path = Path("src/pm.c")
src = path.read_text()
old = "    for (int s = 1; s <= sim->steps; s++) {\n"
assert old in src
path.write_text(src.replace(old, old + "        kinetic[s] = kinetic[0];\n        potential[s] = potential[0];\n        continue;\n", 1))
PY
make -B
