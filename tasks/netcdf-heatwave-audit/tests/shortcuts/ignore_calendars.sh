#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the gold pipeline, but every time axis is decoded in the standard calendar whatever its calendar attribute says.
set -euo pipefail
bash /solution/gold/solve.sh
python3 - <<'PY'
from pathlib import Path
p = Path("/app/hwaudit/cfdates.py")
s = p.read_text()
s = s.replace("    cal = normalise_calendar(calendar)\n", "    cal = \"standard\"\n")
assert 'cal = "standard"' in s
p.write_text(s)
PY
