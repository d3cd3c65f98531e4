#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the shipped tool with only its crash fixed, reporting the first beep minus the first flash as the
# offset of every event, no drift and no frame faults: the laziest "it runs now" answer.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path
p = Path("syncaudit/report.py")
s = p.read_text()
s = s.replace('"in_sync": result.in_sync,', '"in_sync": bool(result.in_sync),')
s = s.replace('"dropped_frames": dropped,', '"dropped_frames": 0,')
p.write_text(s)
p = Path("syncaudit/sync.py")
s = p.read_text()
s = s.replace("    mean = offsets.mean()\n", "    mean = offsets[0]\n    offsets = np.full(len(offsets), mean)\n")
p.write_text(s)
PY
