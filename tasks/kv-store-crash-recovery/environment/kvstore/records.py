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


class CorruptRecord(ValueError):
    pass


def unpack_all(data: bytes) -> tuple:
    """(records [(op, key, value)], number of bytes read)."""
    records, pos = [], 0
    while pos < len(data):
        crc, op, key_len, value_len = HEAD.unpack_from(data, pos)
        end = pos + HEAD.size + key_len + value_len
        if zlib.crc32(data[pos + 4:end]) != crc:
            raise CorruptRecord(f"bad checksum at offset {pos}")
        key = data[pos + HEAD.size:pos + HEAD.size + key_len]
        records.append((op, key, data[pos + HEAD.size + key_len:end]))
        pos = end
    return records, pos
