#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: a strict LHPK decoder and an encoder, written from the format as reverse-engineered from the
# samples and the compiled encoder (LEB128 varints, CRC over type+flags+body, F/C/E + ancillary chunks,
# index footer), revision 2 (content CRC, per-entry zlib streams, L links) from the -v2 samples alone, then
# checked against the samples and the reference encoder.
set -euo pipefail
cat > /app/lhpk.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""LHPK archive tool: decode FILE OUT_DIR | encode DIR FILE.

Header b"LHPK", version 1, flags (bit0 index footer), 2 zero bytes. Chunks: type, flags, body, CRC-32 (LE)
over type+flags+body. F: varint name_len, name, varint total_size, varint n, payload. C: varint n, payload.
E: varint entry count. Lower-case types are ancillary (varint n, payload; skipped). Chunk flags: bit0 zlib,
bit1 more pieces follow. Footer: body (varint count; per entry varint name_len, name, varint F offset,
varint size), crc32(body) u32, len(body) u32, b"LHIX". Varints are unsigned LEB128.

Revision 2 (version byte 2): F carries crc32(content) u32 after the size; an entry's payloads (F, then its C
chunks), joined, are one zlib stream when bit0 is set (on every chunk of the entry); L (varint name_len, name,
varint entry number) is an entry whose content is that of an earlier entry (numbers count links too).
"""

from __future__ import annotations

import os
import struct
import sys
import zlib

MAGIC, INDEX_MAGIC = b"LHPK", b"LHIX"
ZLIB, MORE = 1, 2


class LhpkError(Exception):
    pass


class Cursor:
    def __init__(self, data, pos=0, end=None):
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else end

    def read(self, n):
        if n < 0 or self.pos + n > self.end:
            raise LhpkError("truncated archive")
        piece = self.data[self.pos:self.pos + n]
        self.pos += n
        return piece

    def varint(self):
        value = shift = 0
        while True:
            byte = self.read(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise LhpkError("varint too long")


def varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | 0x80 if n else byte)
        if not n:
            return bytes(out)


def safe_name(name):
    if not name or name.startswith("/") or "\\" in name or "\0" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def inflate(payload):
    obj = zlib.decompressobj()
    try:
        data = obj.decompress(payload) + obj.flush()
    except zlib.error as exc:
        raise LhpkError(f"bad zlib data: {exc}") from None
    if not obj.eof or obj.unused_data:
        raise LhpkError("bad zlib stream")
    return data


def read_index(data):
    if len(data) < 20 or data[-4:] != INDEX_MAGIC:
        raise LhpkError("index footer missing")
    crc, length = struct.unpack("<II", data[-12:-4])
    start = len(data) - 12 - length
    if start < 8:
        raise LhpkError("bad index length")
    body = data[start:len(data) - 12]
    if zlib.crc32(body) != crc:
        raise LhpkError("index checksum mismatch")
    cur = Cursor(body)
    entries = []
    for _ in range(cur.varint()):
        name = cur.read(cur.varint()).decode("utf-8", errors="strict")
        entries.append((name, cur.varint(), cur.varint()))
    if cur.pos != len(body):
        raise LhpkError("index has trailing bytes")
    return start, entries


def decode(data):
    if len(data) < 8 or data[:4] != MAGIC:
        raise LhpkError("not an LHPK archive")
    if data[4] not in (1, 2) or data[5] & ~1 or data[6:8] != b"\0\0":
        raise LhpkError("unsupported header")
    v2 = data[4] == 2
    end, index = len(data), None
    if data[5] & 1:
        end, index = read_index(data)
    cur = Cursor(data, 8, end)
    files, order, contents, current = {}, [], [], None
    while True:
        start = cur.pos
        kind = cur.read(1)
        flags = cur.read(1)[0]
        if kind == b"F":
            if current is not None:
                raise LhpkError("entry started before the previous one ended")
            raw_name = cur.read(cur.varint())
            total = cur.varint()
            content_crc = struct.unpack("<I", cur.read(4))[0] if v2 else None
            payload = cur.read(cur.varint())
        elif kind == b"C":
            if current is None:
                raise LhpkError("continuation without an entry")
            payload = cur.read(cur.varint())
        elif kind == b"E":
            count = cur.varint()
        elif kind == b"L" and v2:
            if current is not None:
                raise LhpkError("link inside an unfinished entry")
            raw_name = cur.read(cur.varint())
            target = cur.varint()
        elif b"a" <= kind <= b"z":
            payload = cur.read(cur.varint())
        else:
            raise LhpkError(f"unknown critical chunk {kind!r}")
        (crc,) = struct.unpack("<I", cur.read(4))
        if zlib.crc32(data[start:cur.pos - 4]) != crc:
            raise LhpkError(f"checksum mismatch in chunk at offset {start}")
        if flags & ~(ZLIB | MORE):
            raise LhpkError("reserved chunk flags set")
        if kind == b"E":
            if flags or current is not None or count != len(order):
                raise LhpkError("bad end chunk")
            break
        if b"a" <= kind <= b"z":
            if flags:
                raise LhpkError("flags on an ancillary chunk")
            continue
        if kind in (b"F", b"L"):
            try:
                name = raw_name.decode("utf-8", errors="strict")
            except UnicodeDecodeError:
                raise LhpkError("entry name is not UTF-8") from None
            if not safe_name(name) or name in files:
                raise LhpkError(f"unsafe or duplicate entry name {name!r}")
        if kind == b"L":
            if flags or target >= len(contents):
                raise LhpkError("link to a missing entry")
            files[name] = contents[target]
            contents.append(contents[target])
            order.append((name, start, len(contents[target])))
            continue
        if v2:
            piece = payload
            if kind == b"C" and (flags & ZLIB) != current[4]:
                raise LhpkError("compression flag changes within an entry")
        else:
            piece = inflate(payload) if flags & ZLIB else payload
        if kind == b"F":
            current = [name, total, [piece], start, flags & ZLIB, content_crc]
        else:
            current[2].append(piece)
        if not flags & MORE:
            content = b"".join(current[2])
            if v2:
                if current[4]:
                    content = inflate(content)
                if zlib.crc32(content) != current[5]:
                    raise LhpkError("content checksum mismatch")
            if len(content) != current[1]:
                raise LhpkError("entry size mismatch")
            files[current[0]] = content
            contents.append(content)
            order.append((current[0], current[3], current[1]))
            current = None
    if cur.pos != end:
        raise LhpkError("trailing bytes after the end chunk")
    if index is not None and index != order:
        raise LhpkError("index does not match the entries")
    for name in files:
        parts = name.split("/")
        if any("/".join(parts[:i]) in files for i in range(1, len(parts))):
            raise LhpkError("a file is also used as a directory")
    return files


def chunk(kind, flags, body):
    head = kind + bytes([flags]) + body
    return head + struct.pack("<I", zlib.crc32(head))


def encode(files, chunk_size=16384):
    """Revision 2: duplicate contents become links, each entry is one zlib stream when that is smaller."""
    out = bytearray(MAGIC + bytes([2, 1, 0, 0]))
    index, first = [], {}
    for number, (name, data) in enumerate(files):
        offset = len(out)
        raw = name.encode("utf-8")
        if data in first:
            out += chunk(b"L", 0, varint(len(raw)) + raw + varint(first[data]))
            index.append((name, offset, len(data)))
            continue
        first[data] = number
        stored, zflag = data, 0
        if data:
            packed = zlib.compress(data, 9)
            if len(packed) < len(data):
                stored, zflag = packed, ZLIB
        pieces = [stored[i:i + chunk_size] for i in range(0, len(stored), chunk_size)] or [b""]
        for k, piece in enumerate(pieces):
            flags = zflag | (MORE if k < len(pieces) - 1 else 0)
            body = varint(len(piece)) + piece
            if k == 0:
                head = varint(len(raw)) + raw + varint(len(data)) + struct.pack("<I", zlib.crc32(data))
                out += chunk(b"F", flags, head + body)
            else:
                out += chunk(b"C", flags, body)
        index.append((name, offset, len(data)))
    out += chunk(b"E", 0, varint(len(files)))
    body = bytearray(varint(len(index)))
    for name, offset, size in index:
        raw = name.encode("utf-8")
        body += varint(len(raw)) + raw + varint(offset) + varint(size)
    return bytes(out + body + struct.pack("<II", zlib.crc32(body), len(body)) + INDEX_MAGIC)


def cmd_decode(archive, out_dir):
    with open(archive, "rb") as handle:
        files = decode(handle.read())
    root = os.path.realpath(out_dir)
    for name, content in files.items():
        path = os.path.join(root, *name.split("/"))
        if not os.path.realpath(path).startswith(root + os.sep):
            raise LhpkError(f"unsafe path {name!r}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(content)
    return 0


def cmd_encode(directory, archive):
    files = []
    for base, dirs, names in os.walk(directory):
        dirs.sort()
        for fname in names:
            full = os.path.join(base, fname)
            if os.path.isfile(full) and not os.path.islink(full):
                with open(full, "rb") as handle:
                    files.append((os.path.relpath(full, directory).replace(os.sep, "/"), handle.read()))
    with open(archive, "wb") as handle:
        handle.write(encode(sorted(files)))
    return 0


def main(argv):
    if len(argv) != 3 or argv[0] not in ("decode", "encode"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        return (cmd_decode if argv[0] == "decode" else cmd_encode)(argv[1], argv[2])
    except (LhpkError, OSError, UnicodeDecodeError) as exc:
        print(f"lhpk: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
PY
cd /app
for sample in samples/*.lhpk; do
    out=$(mktemp -d)
    python3 lhpk.py decode "$sample" "$out"
    diff -r "$out" "${sample%.lhpk}" && echo "ok $sample"
    rm -rf "$out"
done
