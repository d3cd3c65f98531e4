#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: replays the captured client frames verbatim (including the captured login proof) and exports whatever pages come back, then pages on with the captured session's proof.
set -euo pipefail
cp /solution/gold/client.py /app/vaultproto.py
cat > /app/client.py <<'PY'
import argparse
import json
import os
import socket
import struct

from vaultproto import PAGE, decode_page

parser = argparse.ArgumentParser()
for name in ("--socket", "--user", "--password", "--out"):
    parser.add_argument(name, required=True)
args = parser.parse_args()
frames = [bytes.fromhex(line[3:].strip()) for line in open("/app/captures/session-1.hex") if line.startswith("C> ")]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(args.socket)
records = []
for frame in frames:
    try:
        sock.sendall(frame)
        head = b""
        while len(head) < 6:
            part = sock.recv(6 - len(head))
            if not part:
                raise ConnectionError
            head += part
        (n,) = struct.unpack(">H", head[4:6])
        body = b""
        while len(body) < n + 4:
            part = sock.recv(n + 4 - len(body))
            if not part:
                raise ConnectionError
            body += part
    except OSError:
        break
    if head[2] == PAGE:
        records += decode_page(body[:n])[0]
os.makedirs(os.path.join(args.out, "blobs"), exist_ok=True)
with open(os.path.join(args.out, "records.jsonl"), "w") as out:
    for rec in sorted(records, key=lambda r: r["id"]):
        out.write(json.dumps(rec) + "\n")
PY
