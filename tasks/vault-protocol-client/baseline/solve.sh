#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: gets login right (version 3, the HMAC proof), follows the paging cursor, fixes signed integers,
# attachment references, the sequence wrap and the download offset; but knows only text, integers and
# attachments (decoded as latin-1), gives up on "busy", never reconnects and never checks a piece's checksum.
set -euo pipefail
python3 - <<'PY'
from pathlib import Path

path = Path("/app/client.py")
src = path.read_text()


def swap(old, new):
    global src
    assert old in src, old
    src = src.replace(old, new)


swap("import hashlib\n", "import hashlib\nimport hmac\n")
swap("PROTOCOL_VERSIONS = [2]", "PROTOCOL_VERSIONS = [3]")
swap("struct.pack(\">BBH\", kind, self.seq, len(payload))", "struct.pack(\">BBH\", kind, self.seq & 0xFF, len(payload))")
swap("    proof = hashlib.sha256(password.encode() + nonce).digest()[:16]\n    name = user.encode()\n",
     "    name = user.encode()\n    proof = hmac.new(password.encode(), nonce + struct.pack(\">H\", _session) + name,"
     " hashlib.sha256).digest()[:16]\n")
swap("struct.unpack_from(\">Q\", buf, pos)", "struct.unpack_from(\">q\", buf, pos)")
swap("        blob, _size = struct.unpack_from(\">II\", buf, pos)\n        return blob, pos + 8",
     "        blob, size = struct.unpack_from(\">II\", buf, pos)\n        return {\"blob\": blob, \"size\": size}, pos + 8")
swap("def read_page(body: bytes) -> list[dict]:", "def read_page(body: bytes) -> tuple[list[dict], int]:")
swap("        records.append({\"id\": rec_id, \"fields\": fields})\n    return records",
     "        records.append({\"id\": rec_id, \"fields\": fields})\n    return records, struct.unpack_from(\">I\", body, pos)[0]")
swap("    body = conn.call(LIST, struct.pack(\">IB\", 0, PAGE_SIZE), PAGE)\n    return read_page(body)",
     "    records, cursor = [], 0\n    while True:\n"
     "        page, cursor = read_page(conn.call(LIST, struct.pack(\">IB\", cursor, 25), PAGE))\n"
     "        records += page\n        if cursor == 0:\n            return records")
swap("        offset += CHUNK_SIZE\n", "        offset += n\n")
swap("            blob = rec[\"fields\"][\"attachment\"]\n", "            blob = rec[\"fields\"][\"attachment\"][\"blob\"]\n")
path.write_text(src)
PY
