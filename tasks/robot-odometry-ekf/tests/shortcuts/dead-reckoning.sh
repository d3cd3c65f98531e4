#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the repaired package with every landmark detection ignored: clean odometry (unwrapped counters, units, clocks, ordering, bias from parked intervals) and a well-formed track, but no corrections
set -euo pipefail
cp /solution/gold/odoekf/*.py /app/odoekf/
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("odoekf/pipeline.py")
s = p.read_text()
old = "    def on_landmark(self, record: LandmarkRecord) -> None:\n"
assert old in s
p.write_text(s.replace(old, old + "        return\n"))
PY
python3 localize.py --log examples/aisle-a.odolog --map examples/aisle-a.map.csv --out /tmp/a.csv
python3 tools/evaluate.py /tmp/a.csv examples/aisle-a.truth.csv
