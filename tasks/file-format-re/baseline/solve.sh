#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the varint, the compression flag, ancillary and continuation chunks and nested output
# directories so revision 1 archives decode; no checksum or consistency checks, no revision 2, no encoder.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path

path = Path("/app/lhpk.py")
src = path.read_text()
fixes = [
    ("            value = (value << 7) | (byte & 0x7F)\n            if not byte & 0x80:\n                return value",
     "            value |= (byte & 0x7F) << shift\n            shift += 7\n            if not byte & 0x80:\n                return value"),
    ("        value = 0\n        while True:", "        value = shift = 0\n        while True:"),
    ('    if chunk["flags"] & 0x02:', '    if chunk["flags"] & 0x01:'),
    ('    else:\n        raise LhpkError(f"unknown chunk type {kind!r}")',
     '    elif kind.islower():\n        chunk["payload"] = cur.read(cur.varint())\n    else:\n        raise LhpkError(f"unknown chunk type {kind!r}")'),
    ('        with open(os.path.join(out_dir, name), "wb") as handle:',
     '        os.makedirs(os.path.dirname(os.path.join(out_dir, name)), exist_ok=True)\n        with open(os.path.join(out_dir, name), "wb") as handle:'),
    ('            files[chunk["name"]] = payload_bytes(chunk)\n',
     '            files[chunk["name"]] = payload_bytes(chunk)\n            current = chunk["name"]\n'
     '        elif chunk["kind"] == b"C":\n            files[current] += payload_bytes(chunk)\n'),
]
for old, new in fixes:
    assert old in src, old
    src = src.replace(old, new)
path.write_text(src)
PY
python3 lhpk.py decode samples/hello.lhpk "$(mktemp -d)" || true
