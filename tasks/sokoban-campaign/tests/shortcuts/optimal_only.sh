#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold solver with its move-optimal search only: every warehouse level (six boxes) runs out of CPU time.
set -euo pipefail
bash /solution/gold/solve.sh
cd /app
python3 - <<'PY'
from pathlib import Path

path = Path("/app/solver.py")
src = path.read_text()
old = "    moves = solve(level) if len(level.boxes) <= 4 else solve_greedy(level)\n"
assert old in src
path.write_text(src.replace(old, "    moves = solve(level)\n"))
PY
