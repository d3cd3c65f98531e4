#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: rewrite the record reader (stop at the first torn/corrupt record) and the store: fsync every
# write before acknowledging it, replay tombstones, cut a damaged WAL tail durably, newest-first reads,
# half-open scans without tombstones, flush = segment fsync -> manifest (tmp+fsync+rename) -> WAL truncate,
# compaction newest-wins with old segments removed only after the new manifest is durable, no automatic
# compaction and a large memtable (low write amplification).
set -euo pipefail
cat > /app/kvstore/records.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The record format shared by the write-ahead log and the segments.

    crc32 u32 | op u8 | key_len u16 | value_len u32 | key | value        (little endian)

crc32 covers everything after itself. op is PUT (b"P") or DEL (b"D", a tombstone with an empty value).
"""

from __future__ import annotations

import struct
import zlib

PUT, DEL = b"P", b"D"
HEAD = struct.Struct("<IcHI")


def pack(op: bytes, key: bytes, value: bytes = b"") -> bytes:
    body = struct.pack("<cHI", op, len(key), len(value)) + key + value
    return struct.pack("<I", zlib.crc32(body)) + body


def unpack_all(data: bytes) -> tuple:
    """(records [(op, key, value)], number of bytes of valid records). Stops at the first torn or corrupt
    record: everything after it is ignored."""
    records, pos = [], 0
    while pos + HEAD.size <= len(data):
        crc, op, key_len, value_len = HEAD.unpack_from(data, pos)
        end = pos + HEAD.size + key_len + value_len
        if end > len(data) or op not in (PUT, DEL) or zlib.crc32(data[pos + 4:end]) != crc:
            break
        key = data[pos + HEAD.size:pos + HEAD.size + key_len]
        records.append((op, key, data[pos + HEAD.size + key_len:end]))
        pos = end
    return records, pos
PY
cat > /app/kvstore/store.py <<'PY'
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The store: WAL + memtable + immutable sorted segments listed in a MANIFEST.

Files in the data directory:
  wal.log        records of acknowledged writes not yet in a segment (records.py format)
  seg-NNNNNN.dat a sorted segment (same record format; DEL records are tombstones)
  MANIFEST       the live segments, oldest first, one name per line
"""

from __future__ import annotations

import os

from kvstore import records, vfs

MEMTABLE_LIMIT = 1000


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        os.makedirs(path, exist_ok=True)
        self.segments: list = []  # [(name, {key: (op, value)})], oldest first
        self.memtable: dict = {}
        self.seq = 0
        self._load_segments()
        self._recover_wal()

    def _file(self, name: str) -> str:
        return os.path.join(self.path, name)

    # --- opening -------------------------------------------------------------------------------------
    def _load_segments(self) -> None:
        names = []
        if vfs.exists(self._file("MANIFEST")):
            names = [n for n in vfs.read(self._file("MANIFEST")).decode().split("\n") if n]
        for name in names:
            recs, _ = records.unpack_all(vfs.read(self._file(name)))
            self.segments.append((name, {key: (op, value) for op, key, value in recs}))
            self.seq = max(self.seq, int(name[4:10]))
        live = set(names) | {"wal.log", "MANIFEST"}
        for name in vfs.listdir(self.path):  # leftovers of an interrupted flush or compaction
            if name not in live:
                vfs.unlink(self._file(name))

    def _recover_wal(self) -> None:
        wal = self._file("wal.log")
        data = vfs.read(wal) if vfs.exists(wal) else b""
        recs, valid = records.unpack_all(data)
        for op, key, value in recs:
            self.memtable[key] = (op, value)
        if valid < len(data):  # torn or corrupt tail: keep only the valid prefix, durably
            tmp = self._file("wal.tmp")
            handle = vfs.create(tmp)
            handle.write(data[:valid])
            handle.fsync()
            vfs.rename(tmp, wal)
        self.wal = vfs.open_append(wal)

    # --- writes ----------------------------------------------------------------------------------------
    def _log(self, op: bytes, key: bytes, value: bytes) -> None:
        self.wal.write(records.pack(op, key, value))
        self.wal.fsync()  # durable before it is acknowledged
        self.memtable[key] = (op, value)
        if len(self.memtable) > MEMTABLE_LIMIT:
            self.flush()

    def put(self, key: bytes, value: bytes) -> None:
        self._log(records.PUT, key, value)

    def delete(self, key: bytes) -> None:
        self._log(records.DEL, key, b"")

    # --- reads -----------------------------------------------------------------------------------------
    def _lookup(self, key: bytes):
        if key in self.memtable:
            return self.memtable[key]
        for _name, table in reversed(self.segments):  # newest first
            if key in table:
                return table[key]
        return None

    def get(self, key: bytes):
        entry = self._lookup(key)
        return entry[1] if entry and entry[0] == records.PUT else None

    def _merged(self) -> dict:
        view: dict = {}
        for _name, table in self.segments:  # oldest first, newer overwrite
            view.update(table)
        view.update(self.memtable)
        return view

    def scan(self, start: bytes, end: bytes) -> list:
        view = self._merged()
        return [(k, v[1]) for k, v in sorted(view.items()) if start <= k < end and v[0] == records.PUT]

    # --- flush and compaction ----------------------------------------------------------------------------
    def _write_segment(self, table: dict) -> str:
        self.seq += 1
        name = f"seg-{self.seq:06d}.dat"
        handle = vfs.create(self._file(name))
        handle.write(b"".join(records.pack(op, key, value) for key, (op, value) in sorted(table.items())))
        handle.fsync()
        return name

    def _write_manifest(self, names: list) -> None:
        tmp = self._file("MANIFEST.tmp")
        handle = vfs.create(tmp)
        handle.write("".join(n + "\n" for n in names).encode())
        handle.fsync()
        vfs.rename(tmp, self._file("MANIFEST"))

    def flush(self) -> None:
        if not self.memtable:
            return
        with vfs.phase("flush"):
            name = self._write_segment(self.memtable)
            self.segments.append((name, dict(self.memtable)))
            self._write_manifest([n for n, _ in self.segments])
            vfs.truncate(self._file("wal.log"))  # only once the segment and manifest are durable
            self.wal = vfs.open_append(self._file("wal.log"))
            self.memtable = {}

    def compact(self) -> None:
        with vfs.phase("compact"):
            self.flush()
            if len(self.segments) <= 1 and not any(
                    op == records.DEL for _n, t in self.segments for op, _v in t.values()):
                return
            merged = {k: v for k, v in self._merged().items() if v[0] == records.PUT}  # full merge: no tombstones
            old = [n for n, _ in self.segments]
            name = self._write_segment(merged) if merged else None
            self.segments = [(name, merged)] if name else []
            self._write_manifest([n for n, _ in self.segments])
            for n in old:  # only after the new manifest is durable
                vfs.unlink(self._file(n))
PY
cd /app
tmp=$(mktemp -d)
python3 -m kvstore "$tmp/data" examples/basic.txt | diff - examples/basic.out && echo "public example ok"
rm -rf "$tmp"
