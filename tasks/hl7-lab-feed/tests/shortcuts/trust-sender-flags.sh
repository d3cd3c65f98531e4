#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: skips the reference-range table and the age/sex logic: parses feeds like the gold solution but takes
# each result's flag from the sender's own OBX-8 abnormal flag
set -euo pipefail
bash /solution/gold/solve.sh
cd /app
python3 - <<'PY'
from pathlib import Path

p = Path("labfeed/pipeline.py")
text = p.read_text()
old = "flag = ranges.flag(low, self.table.lookup(analyte.code, patient.sex, age))"
assert old in text
p.write_text(text.replace(old, "flag = obx.value(8)"))
PY
