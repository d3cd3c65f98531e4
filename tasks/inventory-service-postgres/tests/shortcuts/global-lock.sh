#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: serialize everything: the gold service with one global lock around every request (correct, not concurrent)
set -euo pipefail
bash /solution/gold/solve.sh >/dev/null
cd /app
python3 - <<'PY'
from pathlib import Path
path = Path("/app/inventory/server.py")
src = path.read_text()
old = "    def dispatch(self, method: str) -> None:\n"
assert old in src
src = src.replace(old, "    def dispatch(self, method: str) -> None:\n        with GLOBAL:\n            self.dispatch_locked(method)\n\n"
                  "    def dispatch_locked(self, method: str) -> None:\n", 1)
src = src.replace("MAX_BODY = 1 << 20\n", "MAX_BODY = 1 << 20\nGLOBAL = __import__('threading').Lock()\n", 1)
path.write_text(src)
PY
