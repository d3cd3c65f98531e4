# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""vault export client (work in progress).

Exports every record of a vaultd instance to OUT/records.jsonl and every attachment blob to OUT/blobs/ID.

    python3 client.py --socket PATH --user NAME --password SECRET --out DIR

Status (from the previous owner's notes): framing works against the staging server; login was written
against the old v2 service and has not been re-checked since the v3 rollout; listing and downloads were only
tried on a tiny vault. See NOTES.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import socket
import struct
import sys
import zlib

MAGIC = b"VL"

# request types
HELLO = 0x01
AUTH = 0x02
LIST = 0x10
GET = 0x20
BYE = 0x0F

# answer types
HELLO_OK = 0x81
AUTH_OK = 0x82
PAGE = 0x90
CHUNK = 0xA0
BYE_OK = 0x8F
ERROR = 0xFF

PROTOCOL_VERSIONS = [2]
PAGE_SIZE = 100
CHUNK_SIZE = 4096


class VaultError(Exception):
    """An ERROR frame from the server."""

    def __init__(self, code: int, retry_ms: int, message: str) -> None:
        super().__init__(f"vaultd error {code:#06x}: {message}")
        self.code = code
        self.retry_ms = retry_ms


class Connection:
    """One connection: frames are  'VL' | type u8 | seq u8 | length u16 | payload | crc32 u32  (big-endian),
    the crc32 (zlib's) covering everything before it."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.seq = 0

    def close(self) -> None:
        self.sock.close()

    def send(self, kind: int, payload: bytes) -> None:
        frame = MAGIC + struct.pack(">BBH", kind, self.seq, len(payload)) + payload
        self.sock.sendall(frame + struct.pack(">I", zlib.crc32(frame)))
        self.seq += 1

    def recv_exact(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            part = self.sock.recv(n - len(data))
            if not part:
                raise ConnectionError("server closed the connection")
            data += part
        return data

    def recv(self) -> tuple[int, bytes]:
        head = self.recv_exact(6)
        if head[:2] != MAGIC:
            raise ConnectionError(f"bad magic {head[:2]!r}")
        kind, _seq, length = struct.unpack(">BBH", head[2:])
        payload = self.recv_exact(length)
        (crc,) = struct.unpack(">I", self.recv_exact(4))
        if zlib.crc32(head + payload) != crc:
            raise ConnectionError("frame checksum mismatch")
        if kind == ERROR:
            code, retry_ms, mlen = struct.unpack(">HHB", payload[:5])
            raise VaultError(code, retry_ms, payload[5:5 + mlen].decode("ascii", "replace"))
        return kind, payload

    def call(self, kind: int, payload: bytes, expect: int) -> bytes:
        self.send(kind, payload)
        got, body = self.recv()
        if got != expect:
            raise ConnectionError(f"expected answer {expect:#x}, got {got:#x}")
        return body


def login(conn: Connection, user: str, password: str) -> int:
    """Handshake and authenticate; returns the number of records the vault holds."""
    hello = b"VAULT" + bytes([len(PROTOCOL_VERSIONS)]) + bytes(PROTOCOL_VERSIONS)
    body = conn.call(HELLO, hello, HELLO_OK)
    _version = body[0]
    _session = struct.unpack(">H", body[1:3])[0]
    nonce = body[3:19]
    # v2 scheme: the proof is a hash of the password and the server's nonce
    proof = hashlib.sha256(password.encode() + nonce).digest()[:16]
    name = user.encode()
    body = conn.call(AUTH, bytes([len(name)]) + name + proof, AUTH_OK)
    return struct.unpack(">I", body[:4])[0]


def read_value(buf: bytes, pos: int):
    """One typed value at buf[pos]; returns (value, next position)."""
    kind = buf[pos]
    pos += 1
    if kind == 1:  # text
        (n,) = struct.unpack_from(">H", buf, pos)
        return buf[pos + 2:pos + 2 + n].decode("latin-1"), pos + 2 + n
    if kind == 2:  # integer
        return struct.unpack_from(">Q", buf, pos)[0], pos + 8
    if kind == 7:  # attachment
        blob, _size = struct.unpack_from(">II", buf, pos)
        return blob, pos + 8
    raise ValueError(f"unsupported value type {kind}")


def read_page(body: bytes) -> list[dict]:
    count = body[0]
    pos = 1
    records = []
    for _ in range(count):
        rec_id, nfields = struct.unpack_from(">IB", body, pos)
        pos += 5
        fields = {}
        for _ in range(nfields):
            klen = body[pos]
            key = body[pos + 1:pos + 1 + klen].decode("ascii")
            fields[key], pos = read_value(body, pos + 1 + klen)
        records.append({"id": rec_id, "fields": fields})
    return records


def list_records(conn: Connection) -> list[dict]:
    body = conn.call(LIST, struct.pack(">IB", 0, PAGE_SIZE), PAGE)
    return read_page(body)


def download(conn: Connection, blob: int, path: str) -> None:
    data = b""
    offset = 0
    while True:
        body = conn.call(GET, struct.pack(">IIH", blob, offset, CHUNK_SIZE), CHUNK)
        _blob, _offset, total, n = struct.unpack_from(">IIIH", body, 0)
        chunk = body[14:14 + n]
        (_check,) = struct.unpack_from(">I", body, 14 + n)  # TODO: verify
        data += chunk
        offset += CHUNK_SIZE
        if offset >= total:
            break
    with open(path, "wb") as out:
        out.write(data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", required=True, help="vaultd's Unix socket")
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--out", required=True, help="directory for records.jsonl and blobs/")
    args = parser.parse_args()

    conn = Connection(args.socket)
    login(conn, args.user, args.password)
    records = list_records(conn)
    os.makedirs(os.path.join(args.out, "blobs"), exist_ok=True)
    with open(os.path.join(args.out, "records.jsonl"), "w") as out:
        for rec in records:
            out.write(json.dumps(rec) + "\n")
    for rec in records:
        if "attachment" in rec["fields"]:
            blob = rec["fields"]["attachment"]
            download(conn, blob, os.path.join(args.out, "blobs", str(blob)))
    conn.send(BYE, b"")
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
