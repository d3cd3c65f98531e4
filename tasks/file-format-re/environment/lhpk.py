# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""LHPK archive tool.

    python3 lhpk.py decode FILE OUT_DIR    extract an archive
    python3 lhpk.py encode DIR FILE        create an archive

Status: decode works on the first samples we had; encode is not written yet. See docs/lhpk_spec.md.
"""

from __future__ import annotations

import os
import struct
import sys
import zlib

MAGIC = b"LHPK"


class LhpkError(Exception):
    pass


class Cursor:
    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos

    def read(self, n: int) -> bytes:
        piece = self.data[self.pos:self.pos + n]
        self.pos += n
        return piece

    def u8(self) -> int:
        return self.read(1)[0]

    def varint(self) -> int:
        value = 0
        while True:
            byte = self.u8()
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                return value


def read_header(cur: Cursor) -> dict:
    magic = cur.read(4)
    if magic != MAGIC:
        raise LhpkError("not an LHPK file")
    version, flags = cur.u8(), cur.u8()
    cur.read(2)
    return {"version": version, "flags": flags}


def read_chunk(cur: Cursor) -> dict:
    start = cur.pos
    kind = cur.read(1)
    flags = cur.u8()
    chunk = {"kind": kind, "flags": flags, "start": start}
    if kind == b"F":
        name_len = cur.varint()
        chunk["name"] = cur.read(name_len).decode("utf-8")
        chunk["size"] = cur.varint()
        chunk["payload"] = cur.read(cur.varint())
    elif kind == b"C":
        chunk["payload"] = cur.read(cur.varint())
    elif kind == b"E":
        chunk["count"] = cur.varint()
    else:
        raise LhpkError(f"unknown chunk type {kind!r}")
    chunk["crc"] = struct.unpack("<I", cur.read(4))[0]
    # TODO: verify chunk["crc"] -- which bytes does it cover?
    return chunk


def payload_bytes(chunk: dict) -> bytes:
    if chunk["flags"] & 0x02:
        return zlib.decompress(chunk["payload"])
    return chunk["payload"]


def decode(data: bytes) -> dict:
    cur = Cursor(data)
    read_header(cur)
    files = {}
    while cur.pos < len(data):
        chunk = read_chunk(cur)
        if chunk["kind"] == b"E":
            break
        if chunk["kind"] == b"F":
            files[chunk["name"]] = payload_bytes(chunk)
        # C chunks: not seen in our samples yet
    return files


def cmd_decode(archive: str, out_dir: str) -> int:
    with open(archive, "rb") as handle:
        files = decode(handle.read())
    for name, content in files.items():
        with open(os.path.join(out_dir, name), "wb") as handle:
            handle.write(content)
    return 0


def cmd_encode(directory: str, archive: str) -> int:
    raise NotImplementedError("encode is not implemented yet")


def main(argv: list) -> int:
    if len(argv) != 3 or argv[0] not in ("decode", "encode"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        if argv[0] == "decode":
            return cmd_decode(argv[1], argv[2])
        return cmd_encode(argv[1], argv[2])
    except LhpkError as exc:
        print(f"lhpk: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
