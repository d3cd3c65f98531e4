#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: lhpk.py encode is a one-line wrapper round the shipped encoder /app/tools/lhpkenc.pyc; nothing else
set -euo pipefail
cat > /app/lhpk.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
import subprocess, sys; sys.exit(subprocess.call([sys.executable, "/app/tools/lhpkenc.pyc", *sys.argv[2:]]) if sys.argv[1:2] == ["encode"] else 1)
PY
