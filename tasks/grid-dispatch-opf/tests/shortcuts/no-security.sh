#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the repaired base-case OPF with prices, but the N-1 contingencies are ignored (plain dispatch, no
# security rows, no islanding report)
set -euo pipefail
cp /solution/gold/gridopt/*.py /app/gridopt/
cp /solution/gold/dispatch.py /app/dispatch.py
cd /app
python3 - <<'PY'
from pathlib import Path
path = Path("gridopt/network.py")
text = path.read_text()
text = text.replace('    spec = data.get("contingencies")\n', '    spec = None\n', 1)
path.write_text(text)
PY
