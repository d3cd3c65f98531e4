#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: the complete client minus the login: it never works out the proof, sending HELLO and going straight to LIST (and, when refused, an all-zero proof).
set -euo pipefail
bash /solution/gold/solve.sh
python3 - <<'PY'
from pathlib import Path

path = Path("/app/client.py")
src = path.read_text()
old = 'proof = hmac.new(password.encode(), nonce + struct.pack(">H", self.sid) + name, hashlib.sha256).digest()[:16]'
assert old in src
src = src.replace(old, "proof = bytes(16)")
path.write_text(src)
PY
