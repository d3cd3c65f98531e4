#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: a partial solution, not a cheat: the gold parser with the result-status rules dropped (every
# observation replaces the result, D and X included; no duplicate detection); it must lose every family with
# corrections or retransmissions
set -euo pipefail
bash /solution/gold/solve.sh
cd /app
python3 - <<'PY'
from pathlib import Path


def sub(path, old, new):
    p = Path(path)
    text = p.read_text()
    assert old in text, (path, old)
    p.write_text(text.replace(old, new))


sub("labfeed/store.py", 'if status == "P" and before is not None and before.status in ("F", "C"):', "if False:")
sub("labfeed/store.py", 'if status == "D":', "if False:")
sub("labfeed/pipeline.py", "if key in self.seen:", "if False:")
PY
