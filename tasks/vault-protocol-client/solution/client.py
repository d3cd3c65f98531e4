# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Export every record and blob of a vaultd instance (protocol version 3) to --out."""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import os
import socket
import struct
import sys
import time
import zlib

MAGIC = b"VL"
HELLO, AUTH, LIST, GET, BYE = 0x01, 0x02, 0x10, 0x20, 0x0F
HELLO_OK, AUTH_OK, PAGE, CHUNK, ERROR = 0x81, 0x82, 0x90, 0xA0, 0xFF
BUSY = 0x0429
PAGE_LIMIT = 25
CHUNK_MAX = 512
MAX_ATTEMPTS = 400


class SessionLost(Exception):
    """The server closed the connection; reconnect and carry on."""


class Busy(Exception):
    def __init__(self, retry_ms: int) -> None:
        super().__init__(retry_ms)
        self.retry_ms = retry_ms


class ProtocolError(Exception):
    pass


class Session:
    def __init__(self, path: str, user: str, password: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.seq = 0
        _, body = self.request(HELLO, b"VAULT" + bytes([1, 3]))
        version, self.sid = body[0], struct.unpack(">H", body[1:3])[0]
        nonce = body[3:19]
        if version != 3:
            raise ProtocolError(f"server chose version {version}")
        name = user.encode()
        proof = hmac.new(password.encode(), nonce + struct.pack(">H", self.sid) + name, hashlib.sha256).digest()[:16]
        _, body = self.request(AUTH, bytes([len(name)]) + name + proof)
        self.total = struct.unpack(">I", body[:4])[0]

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass

    def _read(self, n: int) -> bytes:
        data = b""
        while len(data) < n:
            try:
                part = self.sock.recv(n - len(data))
            except OSError as exc:
                raise SessionLost(str(exc)) from exc
            if not part:
                raise SessionLost("connection closed")
            data += part
        return data

    def request(self, kind: int, payload: bytes) -> tuple[int, bytes]:
        head = MAGIC + struct.pack(">BBH", kind, self.seq & 0xFF, len(payload))
        frame = head + payload
        self.seq += 1
        try:
            self.sock.sendall(frame + struct.pack(">I", zlib.crc32(frame)))
        except OSError as exc:
            raise SessionLost(str(exc)) from exc
        head = self._read(6)
        if head[:2] != MAGIC:
            raise ProtocolError("bad magic")
        rtype, _, length = struct.unpack(">BBH", head[2:])
        body = self._read(length)
        (crc,) = struct.unpack(">I", self._read(4))
        if zlib.crc32(head + body) != crc:
            raise SessionLost("bad frame checksum")
        if rtype == ERROR:
            code, retry = struct.unpack(">HH", body[:4])
            msg = body[5:5 + body[4]].decode("ascii", "replace")
            if code == BUSY:
                raise Busy(retry)
            raise ProtocolError(f"server error {code:#06x}: {msg}")
        return rtype, body


def decode_value(buf: bytes, pos: int):
    kind = buf[pos]
    pos += 1
    if kind == 1:
        (n,) = struct.unpack_from(">H", buf, pos)
        return buf[pos + 2:pos + 2 + n].decode("utf-8"), pos + 2 + n
    if kind == 2:
        return struct.unpack_from(">q", buf, pos)[0], pos + 8
    if kind == 3:
        (n,) = struct.unpack_from(">H", buf, pos)
        return base64.b64encode(buf[pos + 2:pos + 2 + n]).decode(), pos + 2 + n
    if kind == 4:
        return buf[pos] != 0, pos + 1
    if kind == 5:
        return None, pos
    if kind == 6:
        count = buf[pos]
        pos += 1
        items = []
        for _ in range(count):
            item, pos = decode_value(buf, pos)
            items.append(item)
        return items, pos
    if kind == 7:
        blob, size = struct.unpack_from(">II", buf, pos)
        return {"blob": blob, "size": size}, pos + 8
    if kind == 8:
        return struct.unpack_from(">d", buf, pos)[0], pos + 8
    raise ProtocolError(f"unknown value type {kind}")


def decode_page(body: bytes) -> tuple[list[dict], int]:
    count, pos, records = body[0], 1, []
    for _ in range(count):
        rec_id, nfields = struct.unpack_from(">IB", body, pos)
        pos += 5
        fields = {}
        for _ in range(nfields):
            klen = body[pos]
            key = body[pos + 1:pos + 1 + klen].decode("utf-8")
            fields[key], pos = decode_value(body, pos + 1 + klen)
        records.append({"id": rec_id, "fields": fields})
    (cursor,) = struct.unpack_from(">I", body, pos)
    return records, cursor


class Client:
    def __init__(self, path: str, user: str, password: str) -> None:
        self.args = (path, user, password)
        self.session: Session | None = None
        self.attempts = 0

    def call(self, kind: int, payload: bytes) -> bytes:
        """One request, retried across busy answers and session resets."""
        while True:
            self.attempts += 1
            if self.attempts > MAX_ATTEMPTS * 100:
                raise ProtocolError("giving up")
            try:
                if self.session is None:
                    self.session = Session(*self.args)
                return self.session.request(kind, payload)[1]
            except Busy as busy:
                time.sleep(busy.retry_ms / 1000.0)
            except SessionLost:
                if self.session is not None:
                    self.session.close()
                self.session = None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    client = Client(args.socket, args.user, args.password)
    records, cursor = [], 0
    while True:
        page, cursor = decode_page(client.call(LIST, struct.pack(">IB", cursor, PAGE_LIMIT)))
        records.extend(page)
        if cursor == 0:
            break
    os.makedirs(os.path.join(args.out, "blobs"), exist_ok=True)
    with open(os.path.join(args.out, "records.jsonl"), "w", encoding="utf-8") as out:
        for rec in sorted(records, key=lambda r: r["id"]):
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    for rec in records:
        for value in rec["fields"].values():
            if isinstance(value, dict) and "blob" in value:
                download(client, value["blob"], value["size"], os.path.join(args.out, "blobs", str(value["blob"])))
    return 0


def download(client: Client, blob: int, size: int, path: str) -> None:
    data = bytearray()
    while len(data) < size:
        body = client.call(GET, struct.pack(">IIH", blob, len(data), CHUNK_MAX))
        got_blob, offset, total, n = struct.unpack_from(">IIIH", body, 0)
        chunk = body[14:14 + n]
        (check,) = struct.unpack_from(">I", body, 14 + n)
        if got_blob != blob or offset != len(data) or total != size:
            raise ProtocolError("chunk for the wrong place")
        if zlib.adler32(chunk) != check:
            continue  # damaged in transit: fetch it again
        if n == 0:
            break
        data += chunk
    with open(path, "wb") as out:
        out.write(bytes(data))


if __name__ == "__main__":
    sys.exit(main())
