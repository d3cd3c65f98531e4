# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own KIMG implementation: a strict decoder that follows /app/docs/kimg-spec.md rule by rule,
and a configurable encoder that writes every feature of the format (filters per row, split DATA, TEXT and
ancillary chunks, CRCs), plus PNM writing/reading. Standard library only."""

from __future__ import annotations

import struct
import zlib

MAGIC = b"KIMG"
CHANNELS = {0: 1, 2: 3, 3: 1, 6: 4}
MAX_SIDE = 16384
MAX_PIXELS = 1 << 24


class Invalid(Exception):
    """The file is not a valid KIMG image within the limits."""


# ---------------------------------------------------------------- decoding
def _unrle(stream: bytes, size: int) -> bytes:
    out = bytearray()
    pos, n = 0, len(stream)
    while len(out) < size:
        if pos >= n:
            raise Invalid("rle: stream ends early")
        c = stream[pos]
        pos += 1
        if c < 128:
            count = c + 1
            if pos + count > n:
                raise Invalid("rle: literal past end of stream")
            if len(out) + count > size:
                raise Invalid("rle: literal overruns image")
            out += stream[pos:pos + count]
            pos += count
        else:
            count = c - 126
            if pos >= n:
                raise Invalid("rle: run without value")
            if len(out) + count > size:
                raise Invalid("rle: run overruns image")
            out += bytes([stream[pos]]) * count
            pos += 1
    if pos != n:
        raise Invalid("rle: trailing bytes")
    return bytes(out)


def _unlz(stream: bytes, size: int) -> bytes:
    out = bytearray()
    pos, n = 0, len(stream)
    while len(out) < size:
        if pos >= n:
            raise Invalid("lz: stream ends early")
        t = stream[pos]
        pos += 1
        if t < 128:
            count = t + 1
            if pos + count > n:
                raise Invalid("lz: literal past end of stream")
            if len(out) + count > size:
                raise Invalid("lz: literal overruns image")
            out += stream[pos:pos + count]
            pos += count
        else:
            length = t - 125
            if pos + 2 > n:
                raise Invalid("lz: match without distance")
            dist = (stream[pos] << 8) | stream[pos + 1]
            pos += 2
            if dist == 0 or dist > len(out):
                raise Invalid("lz: bad distance")
            if len(out) + length > size:
                raise Invalid("lz: match overruns image")
            start = len(out) - dist
            if dist >= length:
                out += out[start:start + length]
            else:
                for k in range(length):
                    out.append(out[start + k])
    if pos != n:
        raise Invalid("lz: trailing bytes")
    return bytes(out)


def _unfilter(data: bytes, width: int, height: int, bpp: int) -> bytes:
    rowbytes = width * bpp
    out = bytearray(rowbytes * height)
    prev = bytes(rowbytes)
    for r in range(height):
        base = r * (rowbytes + 1)
        ftype = data[base]
        row = bytearray(data[base + 1:base + 1 + rowbytes])
        if ftype == 0:
            pass
        elif ftype == 1:
            for i in range(bpp, rowbytes):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif ftype == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, prev))
        elif ftype == 3:
            for i in range(rowbytes):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 255
        else:
            raise Invalid("bad filter type")
        out[r * rowbytes:(r + 1) * rowbytes] = row
        prev = row
    return bytes(out)


def decode(data: bytes) -> dict:
    """{'width', 'height', 'ctype', 'compression', 'crc', 'pixels' (expanded: gray 1, rgb 3, rgba 4 bytes a pixel),
    'filters', 'texts'}; raises Invalid for anything the spec rejects."""
    if len(data) < 8 or data[:4] != MAGIC:
        raise Invalid("bad signature")
    if data[4] != 1 or data[5] & ~1 or data[6] or data[7]:
        raise Invalid("bad version, flags or reserved bytes")
    crc = bool(data[5] & 1)
    pos, n = 8, len(data)
    head = palette = None
    seen_data = ended = False
    stream = bytearray()
    texts = []
    while pos < n:
        if ended:
            raise Invalid("bytes after TAIL")
        if n - pos < 8:
            raise Invalid("truncated chunk header")
        ctype_ = data[pos:pos + 4]
        length = struct.unpack(">I", data[pos + 4:pos + 8])[0]
        pos += 8
        if length > n - pos or (crc and n - pos - length < 4):
            raise Invalid("chunk runs past end of file")
        body = data[pos:pos + length]
        pos += length
        if crc:
            stored = struct.unpack(">I", data[pos:pos + 4])[0]
            pos += 4
            if zlib.crc32(ctype_ + body) != stored:
                raise Invalid("CRC mismatch")
        if head is None and ctype_ != b"HEAD":
            raise Invalid("first chunk is not HEAD")
        if ctype_ == b"HEAD":
            if head is not None:
                raise Invalid("second HEAD")
            if length != 10:
                raise Invalid("HEAD length")
            w, h, ct, comp = struct.unpack(">IIBB", body)
            if ct not in CHANNELS or comp > 2:
                raise Invalid("bad colour type or compression")
            if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE and w * h <= MAX_PIXELS):
                raise Invalid("dimensions out of limits")
            head = (w, h, ct, comp)
        elif ctype_ == b"PLTE":
            if head[2] != 3 or palette is not None or seen_data:
                raise Invalid("misplaced PLTE")
            if length < 3 or length > 768 or length % 3:
                raise Invalid("PLTE length")
            palette = bytes(body)
        elif ctype_ == b"TEXT":
            nul = body.find(b"\0")
            if nul < 1 or nul > 79 or any(b < 0x20 or b > 0x7E for b in body[:nul]):
                raise Invalid("bad TEXT key")
            texts.append((body[:nul].decode("ascii"), bytes(body[nul + 1:])))
        elif ctype_ == b"DATA":
            if head[2] == 3 and palette is None:
                raise Invalid("DATA before PLTE")
            seen_data = True
            stream += body
        elif ctype_ == b"TAIL":
            if length != 0:
                raise Invalid("TAIL length")
            ended = True
        elif not (0x61 <= ctype_[0] <= 0x7A):
            raise Invalid("unknown critical chunk")
    if not ended:
        raise Invalid("no TAIL")
    w, h, ct, comp = head
    if ct == 3 and palette is None:
        raise Invalid("palette image without PLTE")
    bpp = CHANNELS[ct]
    size = h * (w * bpp + 1)
    if comp == 0:
        if len(stream) != size:
            raise Invalid("raw data size")
        filtered = bytes(stream)
    elif comp == 1:
        filtered = _unrle(bytes(stream), size)
    else:
        filtered = _unlz(bytes(stream), size)
    filters = [filtered[r * (w * bpp + 1)] for r in range(h)]
    pixels = _unfilter(filtered, w, h, bpp)
    if ct == 3:
        entries = len(palette) // 3
        if max(pixels) >= entries:
            raise Invalid("palette index out of range")
        pixels = b"".join(palette[3 * i:3 * i + 3] for i in pixels)
    return {"width": w, "height": h, "ctype": ct, "compression": comp, "crc": crc, "pixels": pixels,
            "filters": filters, "texts": texts}


def to_pnm(img: dict) -> bytes:
    """The decoder's output file: P5 for gray, P6 for rgb and palette, P7 RGB_ALPHA for rgba."""
    w, h, ct = img["width"], img["height"], img["ctype"]
    if ct == 0:
        head = b"P5\n%d %d\n255\n" % (w, h)
    elif ct == 6:
        head = b"P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (w, h)
    else:
        head = b"P6\n%d %d\n255\n" % (w, h)
    return head + img["pixels"]


# ---------------------------------------------------------------- encoding
def filter_rows(raw: bytes, width: int, height: int, bpp: int, filters: list[int]) -> bytes:
    rowbytes = width * bpp
    out = bytearray()
    prev = bytes(rowbytes)
    for r in range(height):
        row = raw[r * rowbytes:(r + 1) * rowbytes]
        f = filters[r]
        out.append(f)
        if f == 0:
            out += row
        elif f == 1:
            out += bytes((row[i] - (row[i - bpp] if i >= bpp else 0)) & 255 for i in range(rowbytes))
        elif f == 2:
            out += bytes((a - b) & 255 for a, b in zip(row, prev))
        else:
            out += bytes((row[i] - (((row[i - bpp] if i >= bpp else 0) + prev[i]) >> 1)) & 255
                         for i in range(rowbytes))
        prev = row
    return bytes(out)


def rle(data: bytes, max_literal: int = 128) -> bytes:
    out = bytearray()
    i, n = 0, len(data)
    lit = bytearray()

    def flush():
        while lit:
            part = lit[:max_literal]
            del lit[:max_literal]
            out.append(len(part) - 1)
            out.extend(part)

    while i < n:
        j = i
        while j < n and data[j] == data[i] and j - i < 129:
            j += 1
        if j - i >= 2:
            flush()
            out.append(j - i + 126)
            out.append(data[i])
            i = j
        else:
            lit.append(data[i])
            i += 1
    flush()
    return bytes(out)


def lz(data: bytes, max_literal: int = 128) -> bytes:
    """Greedy LZ with a 3-byte hash (last position), matches 3..130 bytes, distances 1..65535; overlapping
    matches (distance < length) come out of runs naturally."""
    out = bytearray()
    table: dict[bytes, int] = {}
    lit = bytearray()
    i, n = 0, len(data)

    def flush():
        while lit:
            part = lit[:max_literal]
            del lit[:max_literal]
            out.append(len(part) - 1)
            out.extend(part)

    while i < n:
        best_len = best_dist = 0
        if i + 3 <= n:
            key = data[i:i + 3]
            cands = [table.get(key)]
            for d in (1, 2, 3, 4):  # short distances: runs of pixels
                cands.append(i - d if i - d >= 0 else None)
            for c in cands:
                if c is None or i - c > 65535 or i - c < 1:
                    continue
                length = 0
                while length < 130 and i + length < n and data[c + length] == data[i + length]:
                    length += 1
                if length > best_len:
                    best_len, best_dist = length, i - c
            table[key] = i
        if best_len >= 3:
            flush()
            out.append(best_len + 125)
            out += struct.pack(">H", best_dist)
            for k in range(i + 1, min(i + best_len, n - 2)):
                table[data[k:k + 3]] = k
            i += best_len
        else:
            lit.append(data[i])
            i += 1
    flush()
    return bytes(out)


def chunk(ctype: bytes, body: bytes, crc: bool) -> bytes:
    out = ctype + struct.pack(">I", len(body)) + body
    if crc:
        out += struct.pack(">I", zlib.crc32(ctype + body))
    return out


def compress(filtered: bytes, comp: int) -> bytes:
    return filtered if comp == 0 else rle(filtered) if comp == 1 else lz(filtered)


def build(chunks: list[tuple[bytes, bytes]], crc: bool, flags: int | None = None) -> bytes:
    flag = (1 if crc else 0) if flags is None else flags
    return MAGIC + bytes([1, flag, 0, 0]) + b"".join(chunk(t, b, crc) for t, b in chunks)


def head_body(w: int, h: int, ct: int, comp: int) -> bytes:
    return struct.pack(">IIBB", w, h, ct, comp)


def parse_pnm(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, channels, pixels) of a P5/P6/P7 file as the encoder must read it."""
    if data[:2] in (b"P5", b"P6"):
        pos, toks = 2, []
        while len(toks) < 3:
            while pos < len(data) and data[pos] in b" \t\r\n#":
                if data[pos] == 0x23:
                    while pos < len(data) and data[pos] != 0x0A:
                        pos += 1
                else:
                    pos += 1
            start = pos
            while pos < len(data) and data[pos] in b"0123456789":
                pos += 1
            toks.append(int(data[start:pos]))
        pos += 1
        ch = 1 if data[:2] == b"P5" else 3
    else:
        end = data.index(b"ENDHDR\n") + 7
        fields = dict(line.split(b" ", 1) for line in data[3:end - 7].splitlines() if line and line[:1] != b"#")
        toks = [int(fields[b"WIDTH"]), int(fields[b"HEIGHT"]), 255]
        pos, ch = end, 4
    w, h = toks[0], toks[1]
    return w, h, ch, data[pos:pos + w * h * ch]
