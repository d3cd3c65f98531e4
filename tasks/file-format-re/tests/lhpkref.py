# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's reference LHPK codec (hidden): a configurable encoder and a strict decoder.

Layout (all integers little endian, varints are unsigned LEB128):
  header   b"LHPK" version=1 flags(bit0: index footer present) 0x00 0x00
  chunk    type(1) flags(1) body crc32(4)      crc32 covers type, flags and body
    F  file start:    varint name_len, name (UTF-8), varint total_size, varint n, payload[n]
    C  continuation:  varint n, payload[n]
    E  end:           varint entry_count
    a..z ancillary:   varint n, payload[n]      (skipped by decoders)
  chunk flags: bit0 payload is a zlib stream, bit1 more chunks (C) of this entry follow; others must be 0
  footer   varint count, per entry (varint name_len, name, varint offset_of_F_chunk, varint total_size),
           then crc32(body) u32, len(body) u32, b"LHIX"

Revision 2 (version byte 2; lhpkenc 2.x):
    F  file start:    varint name_len, name, varint total_size, crc32(content) u32, varint n, payload[n]
    L  link:          varint name_len, name, varint target   the entry has the content of entry number
                      `target` (0-based over all entries, links included), which must come earlier; flags 0
  compression is per entry: F's bit0 says the payloads of F and all its C chunks, joined, are one zlib
  stream (every chunk of the entry carries the same bit0); pieces split the stored bytes. The index
  footer lists links too (offset of the L chunk, content size).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

MAGIC = b"LHPK"
INDEX_MAGIC = b"LHIX"
VERSIONS = (1, 2)
F_ZLIB, F_MORE = 0x01, 0x02


class FormatError(ValueError):
    pass


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def chunk(kind: bytes, flags: int, body: bytes) -> bytes:
    head = kind + bytes([flags]) + body
    return head + struct.pack("<I", zlib.crc32(head))


@dataclass
class Options:
    chunk_size: int = 16384          # raw bytes per chunk
    compress: str = "auto"           # auto (when smaller) | always | never | mixed
    level: int = 6
    index: bool = True
    ancillary: tuple = ()            # ((position, type, payload), ...) position = entry index before which
    trailing_ancillary: bytes = b""  # an ancillary chunk right before E (type b"z") when non-empty
    version: int = 1
    dedup: bool = True               # revision 2: identical contents become L chunks
    link_shift: int = 0              # test hook (revision 2): added to every link target
    drop_last_piece: bool = False    # test hook (revision 2): entries lose their last C chunk


def encode(files: list, opts: Options = Options(), rng=None) -> bytes:
    """files: [(name, data)] in archive order."""
    if opts.version == 2:
        return _encode_v2(files, opts, rng)
    out = bytearray(MAGIC + bytes([1, 1 if opts.index else 0, 0, 0]))
    index = []
    for number, (name, data) in enumerate(files):
        _ancillary(out, opts, number)
        offset = len(out)
        pieces = [data[i:i + opts.chunk_size] for i in range(0, len(data), opts.chunk_size)] or [b""]
        for k, piece in enumerate(pieces):
            flags = F_MORE if k < len(pieces) - 1 else 0
            payload = piece
            mode = opts.compress
            if mode == "mixed":
                mode = "always" if (rng.random() < 0.5 if rng else k % 2 == 0) else "never"
            if mode in ("auto", "always") and piece:
                packed = zlib.compress(piece, opts.level)
                if mode == "always" or len(packed) < len(piece):
                    payload, flags = packed, flags | F_ZLIB
            body = varint(len(payload)) + payload
            if k == 0:
                raw = name.encode("utf-8")
                body = varint(len(raw)) + raw + varint(len(data)) + body
                out += chunk(b"F", flags, body)
            else:
                out += chunk(b"C", flags, body)
        index.append((name, offset, len(data)))
    return _finish(out, opts, files, index)


def _ancillary(out: bytearray, opts: Options, number: int) -> None:
    for position, kind, payload in opts.ancillary:
        if position == number:
            out += chunk(kind, 0, varint(len(payload)) + payload)


def _finish(out: bytearray, opts: Options, files: list, index: list) -> bytes:
    if opts.trailing_ancillary:
        out += chunk(b"z", 0, varint(len(opts.trailing_ancillary)) + opts.trailing_ancillary)
    out += chunk(b"E", 0, varint(len(files)))
    if opts.index:
        body = bytearray(varint(len(index)))
        for name, offset, size in index:
            raw = name.encode("utf-8")
            body += varint(len(raw)) + raw + varint(offset) + varint(size)
        out += body + struct.pack("<II", zlib.crc32(body), len(body)) + INDEX_MAGIC
    return bytes(out)


def _encode_v2(files: list, opts: Options, rng) -> bytes:
    out = bytearray(MAGIC + bytes([2, 1 if opts.index else 0, 0, 0]))
    index, first = [], {}
    for number, (name, data) in enumerate(files):
        _ancillary(out, opts, number)
        offset = len(out)
        raw = name.encode("utf-8")
        if opts.dedup and data in first:
            out += chunk(b"L", 0, varint(len(raw)) + raw + varint(first[data] + opts.link_shift))
            index.append((name, offset, len(data)))
            continue
        first.setdefault(data, number)
        mode = opts.compress
        if mode == "mixed":
            mode = "always" if (rng.random() < 0.5 if rng else number % 2 == 0) else "never"
        stored, zflag = data, 0
        if mode in ("auto", "always") and data:
            packed = zlib.compress(data, opts.level)
            if mode == "always" or len(packed) < len(data):
                stored, zflag = packed, F_ZLIB
        pieces = [stored[i:i + opts.chunk_size] for i in range(0, len(stored), opts.chunk_size)] or [b""]
        if opts.drop_last_piece and len(pieces) > 1:
            pieces = pieces[:-1]
        for k, piece in enumerate(pieces):
            flags = zflag | (F_MORE if k < len(pieces) - 1 else 0)
            body = varint(len(piece)) + piece
            if k == 0:
                head = varint(len(raw)) + raw + varint(len(data)) + struct.pack("<I", zlib.crc32(data))
                out += chunk(b"F", flags, head + body)
            else:
                out += chunk(b"C", flags, body)
        index.append((name, offset, len(data)))
    return _finish(out, opts, files, index)


class Reader:
    def __init__(self, data: bytes, pos: int = 0, end: int | None = None) -> None:
        self.data, self.pos = data, pos
        self.end = len(data) if end is None else end

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > self.end:
            raise FormatError("truncated")
        piece = self.data[self.pos:self.pos + n]
        self.pos += n
        return piece

    def varint(self) -> int:
        value = shift = 0
        while True:
            byte = self.take(1)[0]
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 63:
                raise FormatError("varint too long")


def valid_name(name: str) -> bool:
    if not name or name.startswith("/") or "\\" in name or "\x00" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def decode(data: bytes) -> dict:
    """{name: bytes} of a valid archive; FormatError for anything invalid."""
    if len(data) < 8 or data[:4] != MAGIC:
        raise FormatError("bad magic")
    if data[4] not in VERSIONS or data[5] & ~1 or data[6:8] != b"\0\0":
        raise FormatError("bad header")
    version = data[4]
    has_index = bool(data[5] & 1)
    end = len(data)
    index = None
    if has_index:
        if len(data) < 20 or data[-4:] != INDEX_MAGIC:
            raise FormatError("missing index footer")
        crc, length = struct.unpack("<II", data[-12:-4])
        start = len(data) - 12 - length
        if start < 8:
            raise FormatError("bad index length")
        body = data[start:len(data) - 12]
        if zlib.crc32(body) != crc:
            raise FormatError("index crc")
        reader = Reader(body)
        index = []
        for _ in range(reader.varint()):
            name = reader.take(reader.varint()).decode("utf-8", errors="strict")
            index.append((name, reader.varint(), reader.varint()))
        if reader.pos != len(body):
            raise FormatError("index has trailing bytes")
        end = start
    reader = Reader(data, 8, end)
    files: dict = {}
    order = []
    contents = []   # entry number -> content
    current = None  # [name, total, parts, offset, zlib flag, content crc]
    while True:
        chunk_start = reader.pos
        kind = reader.take(1)
        flags = reader.take(1)[0]
        if kind == b"F":
            if current is not None:
                raise FormatError("file chunk inside an unfinished entry")
            name_raw = reader.take(reader.varint())
            total = reader.varint()
            content_crc = struct.unpack("<I", reader.take(4))[0] if version == 2 else None
            payload = reader.take(reader.varint())
        elif kind == b"C":
            if current is None:
                raise FormatError("orphan continuation")
            payload = reader.take(reader.varint())
        elif kind == b"E":
            count = reader.varint()
        elif kind == b"L" and version == 2:
            if current is not None:
                raise FormatError("link inside an unfinished entry")
            name_raw = reader.take(reader.varint())
            target = reader.varint()
        elif b"a" <= kind <= b"z":
            payload = reader.take(reader.varint())
        else:
            raise FormatError(f"unknown critical chunk {kind!r}")
        crc = struct.unpack("<I", reader.take(4))[0]
        if zlib.crc32(data[chunk_start:reader.pos - 4]) != crc:
            raise FormatError("chunk crc")
        if flags & ~(F_ZLIB | F_MORE):
            raise FormatError("reserved flag bits")
        if kind == b"E":
            if flags or current is not None:
                raise FormatError("bad end chunk")
            if count != len(order):
                raise FormatError("entry count")
            break
        if b"a" <= kind <= b"z":
            if flags:
                raise FormatError("flags on an ancillary chunk")
            continue
        if kind in (b"F", b"L"):
            try:
                name = name_raw.decode("utf-8", errors="strict")
            except UnicodeDecodeError:
                raise FormatError("name not utf-8") from None
            if not valid_name(name) or name in files:
                raise FormatError(f"bad or duplicate name {name!r}")
        if kind == b"L":
            if flags or target >= len(contents):
                raise FormatError("bad link")
            files[name] = contents[target]
            contents.append(contents[target])
            order.append((name, chunk_start, len(contents[target])))
            continue
        if version == 1:
            piece = _inflate(payload) if flags & F_ZLIB else payload
        else:
            piece = payload
            if kind == b"C" and (flags & F_ZLIB) != current[4]:
                raise FormatError("compression flag differs within an entry")
        if kind == b"F":
            current = [name, total, [piece], chunk_start, flags & F_ZLIB, content_crc]
        else:
            current[2].append(piece)
        if not flags & F_MORE:
            content = b"".join(current[2])
            if version == 2:
                if current[4]:
                    content = _inflate(content)
                if zlib.crc32(content) != current[5]:
                    raise FormatError("content crc")
            if len(content) != current[1]:
                raise FormatError("size mismatch")
            files[current[0]] = content
            contents.append(content)
            order.append((current[0], current[3], current[1]))
            current = None
    if reader.pos != end:
        raise FormatError("trailing bytes")
    if index is not None and index != order:
        raise FormatError("index does not match the entries")
    names = set(files)
    for name in names:  # a file may not also be a directory
        parts = name.split("/")
        if any("/".join(parts[:i]) in names for i in range(1, len(parts))):
            raise FormatError("file used as a directory")
    return files


def _inflate(payload: bytes) -> bytes:
    try:
        obj = zlib.decompressobj()
        data = obj.decompress(payload) + obj.flush()
    except zlib.error as exc:
        raise FormatError(f"zlib: {exc}") from None
    if not obj.eof or obj.unused_data:
        raise FormatError("bad zlib stream")
    return data
