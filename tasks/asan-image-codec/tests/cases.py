# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Hidden cases of asan-image-codec, generated at verify time from the seed.

Every family fixes its difficulty by construction: each case of a family exercises the family's feature (a
filter family has an up or avg row in row 0, an RLE-encode family has runs longer than 129 bytes, ...), and a
proof-of-concept family corrupts its clean twin in exactly its bug's way, so a program either handles the
family or it does not, whatever the seed. Sub-kinds of a family are chosen by the case index, not drawn.
"""

from __future__ import annotations

import random
import struct

import kimgref as K

CH = K.CHANNELS


def ri(rng: random.Random, lo: int, hi: int) -> int:
    """An integer in [lo, hi] drawn through rng.random() only."""
    return lo + min(int(rng.random() * (hi - lo + 1)), hi - lo)


def pick(rng: random.Random, seq):
    return seq[ri(rng, 0, len(seq) - 1)]


# ---------------------------------------------------------------- pixels
def pixels(rng: random.Random, w: int, h: int, ch: int, style: str, colours: int = 0) -> bytes:
    """Raw pixels: 'noise', 'gradient', 'blocks' (flat rectangles: long runs) or 'palette' (few colours)."""
    n = w * h
    if style == "noise":
        return bytes(ri(rng, 0, 255) for _ in range(n * ch))
    if style == "gradient":
        base = [ri(rng, 0, 255) for _ in range(ch)]
        step = [ri(rng, 1, 7) for _ in range(ch)]
        out = bytearray()
        for y in range(h):
            for x in range(w):
                for c in range(ch):
                    out.append((base[c] + step[c] * (x + 2 * y) + (ri(rng, 0, 3) if c == 0 else 0)) & 255)
        return bytes(out)
    if style == "palette":
        table = [bytes(ri(rng, 0, 255) for _ in range(ch)) for _ in range(colours)]
        out = bytearray()
        cur = pick(rng, table)
        for _ in range(n):
            if rng.random() < 0.3:
                cur = pick(rng, table)
            out += cur
        return bytes(out)
    # blocks: a background with a few flat rectangles and some noise rows
    bg = bytes(ri(rng, 0, 255) for _ in range(ch))
    img = bytearray(bg * n)
    for _ in range(ri(rng, 1, 4)):
        x0, y0 = ri(rng, 0, w - 1), ri(rng, 0, h - 1)
        x1, y1 = ri(rng, x0, w - 1), ri(rng, y0, h - 1)
        colour = bytes(ri(rng, 0, 255) for _ in range(ch))
        for y in range(y0, y1 + 1):
            img[(y * w + x0) * ch:(y * w + x1 + 1) * ch] = colour * (x1 - x0 + 1)
    for _ in range(ri(rng, 0, 2)):
        y = ri(rng, 0, h - 1)
        img[y * w * ch:(y + 1) * w * ch] = bytes(ri(rng, 0, 255) for _ in range(w * ch))
    return bytes(img)


def longest_run(data: bytes) -> int:
    best = run = 1
    for a, b in zip(data, data[1:]):
        run = run + 1 if a == b else 1
        best = max(best, run)
    return best if data else 0


# ---------------------------------------------------------------- a generic image spec -> file
class Spec:
    def __init__(self, w, h, ctype, comp, filters, raw, palette=None, crc=False, split=1, texts=(), ancillary=()):
        self.w, self.h, self.ctype, self.comp = w, h, ctype, comp
        self.filters, self.raw, self.palette, self.crc = filters, raw, palette, crc
        self.split, self.texts, self.ancillary = split, list(texts), list(ancillary)

    def filtered(self) -> bytes:
        return K.filter_rows(self.raw, self.w, self.h, CH[self.ctype], self.filters)

    def stream(self) -> bytes:
        return K.compress(self.filtered(), self.comp)

    def chunks(self, stream: bytes | None = None) -> list[tuple[bytes, bytes]]:
        stream = self.stream() if stream is None else stream
        out = [(b"HEAD", K.head_body(self.w, self.h, self.ctype, self.comp))]
        out += [(b"TEXT", t) for t in self.texts[:1]]
        if self.palette is not None:
            out.append((b"PLTE", self.palette))
        out += [(t, b) for t, b in self.ancillary[:1]]
        cuts = sorted({len(stream) * k // self.split for k in range(self.split + 1)})
        parts = [stream[a:b] for a, b in zip(cuts, cuts[1:])] or [b""]
        extras = self.texts[1:]
        for k, part in enumerate(parts):
            out.append((b"DATA", part))
            if k < len(parts) - 1 and extras:
                out.append((b"TEXT", extras.pop()))
        out += [(t, b) for t, b in self.ancillary[1:]]
        out += [(b"TEXT", t) for t in extras]
        out.append((b"TAIL", b""))
        return out

    def file(self, stream: bytes | None = None) -> bytes:
        return K.build(self.chunks(stream), self.crc)

    def expected_pnm(self) -> bytes:
        return K.to_pnm(K.decode(self.file()))


def text_body(rng: random.Random, keylen: int | None = None) -> bytes:
    keylen = ri(rng, 1, 40) if keylen is None else keylen
    key = bytes(ri(rng, 0x21, 0x7E) for _ in range(keylen))
    value = bytes(ri(rng, 0, 255) for _ in range(ri(rng, 0, 60))).replace(b"\0", b"")
    return key + b"\0" + value


def ancillary_chunk(rng: random.Random) -> tuple[bytes, bytes]:
    name = bytes([ri(rng, 0x61, 0x7A)]) + bytes(ri(rng, 0x41, 0x5A) for _ in range(3))
    return name, bytes(ri(rng, 0, 255) for _ in range(ri(rng, 0, 50)))


def simple_spec(rng, *, ctypes=(0, 2), comps=(0, 1), filters=(0, 1), wmax=64, hmax=48, style=None,
                crc=False) -> Spec:
    ctype = pick(rng, list(ctypes))
    w, h = ri(rng, 1, wmax), ri(rng, 1, hmax)
    ch = CH[ctype]
    palette = None
    if ctype == 3:
        n = ri(rng, 2, 256)
        palette = bytes(ri(rng, 0, 255) for _ in range(3 * n))
        raw = bytes(ri(rng, 0, n - 1) if rng.random() < 0.4 else 0 for _ in range(w * h))
    else:
        raw = pixels(rng, w, h, ch, style or pick(rng, ["noise", "gradient", "blocks"]))
    rows = [pick(rng, list(filters)) for _ in range(h)]
    return Spec(w, h, ctype, pick(rng, list(comps)), rows, raw, palette, crc)


# ---------------------------------------------------------------- valid decode families
def lz_overlaps(stream: bytes) -> bool:
    """True when some match of the LZ stream copies from bytes it is itself writing (distance < length)."""
    pos = 0
    while pos < len(stream):
        t = stream[pos]
        if t < 128:
            pos += t + 2
            continue
        if (stream[pos + 1] << 8 | stream[pos + 2]) < t - 125:
            return True
        pos += 3
    return False


def _lz_spec(rng):
    """LZ images always hold a run long enough for an overlapping match (distance < length)."""
    for _ in range(50):
        s = simple_spec(rng, comps=(2,), style="blocks")
        s.w = max(s.w, 24)
        s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "blocks")
        s.filters = [pick(rng, [0, 1]) for _ in range(s.h)]
        if longest_run(s.filtered()) >= 12 and lz_overlaps(s.stream()):
            return s
    raise RuntimeError("no lz image")


def _filters_spec(rng):
    s = simple_spec(rng, ctypes=(0, 2, 6), comps=(0, 1, 2), filters=(0, 1, 2, 3))
    s.h = max(s.h, 2)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], pick(rng, ["noise", "gradient"]))
    s.filters = [pick(rng, [2, 3])] + [pick(rng, [0, 1, 2, 3]) for _ in range(s.h - 1)]
    s.filters[ri(rng, 1, s.h - 1)] = 3
    if s.comp == 2:
        s.comp = 1
    return s


def _palette_spec(rng):
    return simple_spec(rng, ctypes=(3,), comps=(0, 1))


def _rgba_spec(rng):
    return simple_spec(rng, ctypes=(6,), comps=(0, 1))


def _chunks_spec(rng):
    s = simple_spec(rng)
    s.h = max(s.h, 8)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    s.filters = [pick(rng, [0, 1]) for _ in range(s.h)]
    s.split = ri(rng, 3, 6)
    s.texts = [text_body(rng) for _ in range(ri(rng, 2, 4))]
    s.ancillary = [ancillary_chunk(rng) for _ in range(2)]
    return s


def _crc_spec(rng):
    for _ in range(100):
        s = simple_spec(rng, crc=True)
        data = s.file()
        crcs = [struct.unpack(">I", c[-4:])[0] for c in _split_chunks(data)]
        if any(c >= 0x80000000 for c in crcs):
            return s
    raise RuntimeError("no crc image")


def _large_spec(rng):
    s = simple_spec(rng, comps=(0, 1), filters=(0, 1), style="gradient")
    s.w, s.h = ri(rng, 200, 360), ri(rng, 150, 260)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "blocks")
    s.filters = [pick(rng, [0, 1]) for _ in range(s.h)]
    return s


def _basic_spec(rng):
    return simple_spec(rng)


VALID = {"basic": _basic_spec, "lz": _lz_spec, "filters": _filters_spec, "palette": _palette_spec,
         "rgba": _rgba_spec, "chunks": _chunks_spec, "crc": _crc_spec, "large": _large_spec}


def _split_chunks(data: bytes) -> list[bytes]:
    """The chunks of a CRC file, each with header and CRC."""
    out, pos = [], 8
    while pos < len(data):
        length = struct.unpack(">I", data[pos + 4:pos + 8])[0]
        out.append(data[pos:pos + 12 + length])
        pos += 12 + length
    return out


def valid_case(rng: random.Random, family: str) -> tuple[bytes, bytes]:
    spec = VALID[family](rng)
    return spec.file(), spec.expected_pnm()


# ---------------------------------------------------------------- proof-of-concept families
def _rle_overrun(rng, i):
    s = simple_spec(rng, comps=(1,))
    s.h = max(s.h, 2)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    f = s.filtered()
    k = ri(rng, 1, min(60, len(f)))
    bad = K.rle(f[:-k]) + bytes([129 + 126, ri(rng, 0, 255)])
    return s, s.file(bad)


def _rle_literal_short(rng, i):
    s = simple_spec(rng, comps=(1,))
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    f = s.filtered()
    m = ri(rng, 2, min(100, len(f))) if len(f) >= 2 else 1
    bad = K.rle(f[:-m]) + bytes([m - 1]) + f[-m:-1]
    return s, s.file(bad)


def _lz_spec_min(rng):
    s = _lz_spec(rng)
    return s


def _lz_distance(rng, i):
    s = _lz_spec_min(rng)
    good = s.stream()
    # walk the tokens to the first match and point its distance before the start of the output
    pos = produced = 0
    while True:
        t = good[pos]
        if t < 128:
            pos += t + 2
            produced += t + 1
            continue
        break
    dist = 0 if i % 3 == 2 else produced + ri(rng, 1, 8)
    bad = good[:pos + 1] + struct.pack(">H", dist) + good[pos + 3:]
    return s, s.file(bad)


def _lz_overrun(rng, i):
    s = _lz_spec_min(rng)
    f = s.filtered()
    k = ri(rng, 1, min(100, len(f) - 1))
    bad = K.lz(f[:-k]) + bytes([130 + 125, 0, 1])
    return s, s.file(bad)


def zeros_lz(n: int) -> bytes:
    """An LZ stream of n zero bytes: one literal, then matches of 130 (and a shorter last one) at distance 1."""
    out = bytearray([0, 0])
    left = n - 1
    while left >= 3:
        m = min(130, left)
        out += bytes([m + 125, 0, 1])
        left -= m
    if left:
        out += bytes([left - 1]) + bytes(left)
    return bytes(out)


def _dims_overflow(rng, i):
    s = simple_spec(rng)
    ch = CH[s.ctype]
    w = pick(rng, [65536, 131072, 262144])
    h = (1 << 32) // w + ri(rng, 0, 6)
    need = (h * (w * ch + 1)) & 0xFFFFFFFF
    stream = zeros_lz(need)
    bad = list(s.chunks())
    bad[0] = (b"HEAD", K.head_body(w, h, s.ctype, 2))
    bad = [(t, b) if t != b"DATA" else (t, b"") for t, b in bad]
    idx = next(k for k, (t, _) in enumerate(bad) if t == b"DATA")
    bad[idx] = (b"DATA", stream)
    return s, K.build(bad, s.crc)


def _palette_index(rng, i):
    s = simple_spec(rng, ctypes=(3,), comps=(0, 1))
    n = len(s.palette) // 3
    if n == 256:
        s.palette = s.palette[:3 * 255]
        n = 255
        s.raw = bytes(min(v, 254) for v in s.raw)
    raw = bytearray(s.raw)
    for _ in range(ri(rng, 1, 4)):
        raw[ri(rng, 0, len(raw) - 1)] = ri(rng, n, 255)
    bad = Spec(s.w, s.h, 3, s.comp, s.filters, bytes(raw), s.palette)
    return s, bad.file()


def _text_key_long(rng, i):
    s = simple_spec(rng)
    s.texts = [text_body(rng)]
    bad = Spec(s.w, s.h, s.ctype, s.comp, s.filters, s.raw, texts=[text_body(rng, ri(rng, 80, 400))])
    return s, bad.file()


def _text_key_bad_char(rng, i):
    s = simple_spec(rng)
    s.texts = [text_body(rng)]
    body = bytearray(text_body(rng, ri(rng, 2, 79)))
    body[ri(rng, 0, body.index(0) - 1)] = pick(rng, [1, 7, 9, 10, 27, 31, 127, 128, 200, 255])
    bad = Spec(s.w, s.h, s.ctype, s.comp, s.filters, s.raw, texts=[bytes(body)])
    return s, bad.file()


def _crc_mismatch(rng, i):
    """A CRC error in a chunk after the first DATA (the TAIL, or a later DATA chunk)."""
    s = simple_spec(rng, crc=True)
    s.h = max(s.h, 4)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    s.split = 3 if i % 2 else 1
    data = bytearray(s.file())
    chunks = _split_chunks(bytes(data))
    first_data = next(k for k, c in enumerate(chunks) if c[:4] == b"DATA")
    target = len(chunks) - 1 if i % 2 == 0 else ri(rng, first_data + 1, len(chunks) - 1)
    offset = 8 + sum(len(c) for c in chunks[:target]) + len(chunks[target]) - 4
    data[offset + ri(rng, 0, 3)] ^= 1 << ri(rng, 0, 7)
    return s, bytes(data)


def _chunk_length_wrap(rng, i):
    """A length so large that offset + 8 + length wraps around 2**32 to a point inside the file."""
    s = simple_spec(rng)
    chunks = s.chunks()
    kind = b"TEXT" if i % 2 == 0 else b"DATA"
    blob = K.build(chunks[:1], False)  # signature and HEAD
    huge = (1 << 32) - len(blob) - 8 + ri(rng, 0, len(blob))
    blob += kind + struct.pack(">I", huge) + bytes(ri(rng, 0x21, 0x7E) for _ in range(ri(rng, 4, 40)))
    return s, blob


def _raw_size(rng, i):
    s = simple_spec(rng, comps=(0,))
    s.h = max(s.h, 2)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    f = s.filtered()
    k = ri(rng, 1, min(60, len(f) - 1))
    bad = f[:-k] if i % 4 != 3 else f + bytes(ri(rng, 0, 255) for _ in range(k))
    return s, s.file(bad)


def _structure(rng, i):
    """Structural rule breaks, one sub-kind per case index: unknown filter type, second HEAD, trailing bytes
    after TAIL, unknown critical chunk."""
    s = simple_spec(rng, comps=(0, 1))
    s.h = max(s.h, 2)
    s.raw = pixels(rng, s.w, s.h, CH[s.ctype], "noise")
    kind = i % 4
    if kind == 0:
        f = bytearray(s.filtered())
        f[ri(rng, 0, s.h - 1) * (s.w * CH[s.ctype] + 1)] = ri(rng, 4, 255)
        return s, s.file(K.compress(bytes(f), s.comp))
    chunks = s.chunks()
    if kind == 1:
        chunks.insert(len(chunks) - 1, chunks[0])
        return s, K.build(chunks, False)
    if kind == 2:
        return s, s.file() + bytes(ri(rng, 0, 255) for _ in range(ri(rng, 1, 20)))
    name = bytes([ri(rng, 0x41, 0x5A)]) + bytes(ri(rng, 0x41, 0x5A) for _ in range(3))
    while name in (b"HEAD", b"PLTE", b"TEXT", b"DATA", b"TAIL"):
        name = b"X" + name[1:]
    chunks.insert(len(chunks) - 1, (name, bytes(ri(rng, 0, 255) for _ in range(ri(rng, 0, 20)))))
    return s, K.build(chunks, False)


POC = {"rle_overrun": _rle_overrun, "rle_literal_short": _rle_literal_short, "lz_distance": _lz_distance,
       "lz_overrun": _lz_overrun, "dims_overflow": _dims_overflow, "palette_index": _palette_index,
       "text_key_long": _text_key_long, "text_key_bad_char": _text_key_bad_char, "crc_mismatch": _crc_mismatch,
       "chunk_length_wrap": _chunk_length_wrap, "raw_size": _raw_size, "structure": _structure}


def poc_case(rng: random.Random, family: str, index: int) -> tuple[bytes, bytes, bytes]:
    """(clean twin, its expected PNM, the malformed file); the malformed one is checked invalid here."""
    spec, bad = POC[family](rng, index)
    try:
        K.decode(bad)
    except K.Invalid:
        return spec.file(), spec.expected_pnm(), bad
    raise RuntimeError(f"{family} #{index}: the malformed file is valid")


# ---------------------------------------------------------------- fuzz: seeded mutations of small files
def _payload_flips(rng: random.Random, s: Spec) -> bytes:
    """Bytes changed inside DATA and TEXT payloads only (the file often stays valid)."""
    chunks = s.chunks()
    for _ in range(ri(rng, 1, 3)):
        k = pick(rng, [k for k, (t, b) in enumerate(chunks) if t in (b"DATA", b"TEXT") and b])
        t, body = chunks[k]
        body = bytearray(body)
        j = ri(rng, 0, len(body) - 1)
        body[j] = ri(rng, 0, 255) if rng.random() < 0.5 else body[j] ^ (1 << ri(rng, 0, 7))
        chunks[k] = (t, bytes(body))
    return K.build(chunks, s.crc)


def fuzz_case(rng: random.Random, index: int) -> tuple[bytes, bytes | None]:
    """(mutated file, expected PNM or None when the reference rejects it). Even cases change payload bytes of a
    file (recomputing CRCs), odd cases mutate anywhere."""
    s = simple_spec(rng, ctypes=(0, 2, 3, 6), comps=(0, 1, 2), filters=(0, 1, 2, 3), wmax=24, hmax=16,
                    crc=rng.random() < 0.3)
    if rng.random() < 0.5:
        s.texts = [text_body(rng)]
    if index % 2 == 0:
        blob = _payload_flips(rng, s)
        try:
            return blob, K.to_pnm(K.decode(blob))
        except K.Invalid:
            return blob, None
    data = bytearray(s.file())
    for _ in range(ri(rng, 1, 4)):
        op = ri(rng, 0, 5)
        if op == 0 and data:  # flip bits
            data[ri(rng, 0, len(data) - 1)] ^= 1 << ri(rng, 0, 7)
        elif op == 1 and data:  # set a byte to an interesting value
            data[ri(rng, 0, len(data) - 1)] = pick(rng, [0, 1, 0x7F, 0x80, 0xFF, 0xFE, 0x40])
        elif op == 2:  # truncate
            del data[ri(rng, 0, len(data)):]
        elif op == 3 and len(data) > 12:  # a length field (at a chunk start) gets a boundary value
            pos = 8 + 4
            cands = []
            while pos + 4 <= len(data):
                cands.append(pos)
                length = struct.unpack(">I", data[pos:pos + 4])[0]
                pos += 8 + length + (4 if s.crc else 0)
            if cands:
                p = pick(rng, cands)
                value = pick(rng, [0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000, ri(rng, 0, 300)])
                data[p:p + 4] = struct.pack(">I", value)
        elif op == 4 and len(data) > 8:  # duplicate a slice
            a = ri(rng, 8, len(data) - 1)
            b = ri(rng, a, min(len(data), a + 40))
            data[b:b] = data[a:b]
        else:  # delete a slice
            if len(data) > 8:
                a = ri(rng, 8, len(data) - 1)
                del data[a:ri(rng, a, min(len(data), a + 20))]
    blob = bytes(data)
    try:
        return blob, K.to_pnm(K.decode(blob))
    except K.Invalid:
        return blob, None


# ---------------------------------------------------------------- encode round trips
ENCODE = ("enc_raw", "enc_rle", "enc_lz", "enc_filters", "enc_palette", "enc_formats")


def pnm_file(rng: random.Random, w: int, h: int, ch: int, raw: bytes, comments: bool) -> bytes:
    if ch == 4:
        head = b"P7\n"
        if comments:
            head += b"# made by the verifier\n"
        head += b"WIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" % (w, h)
        return head + raw
    magic = b"P5" if ch == 1 else b"P6"
    if not comments:
        return magic + b"\n%d %d\n255\n" % (w, h) + raw
    c1 = b"# " + bytes(ri(rng, 0x20, 0x7E) for _ in range(ri(rng, 0, 30))) + b"\n"
    return magic + b"\n" + c1 + b"%d # width\n%d\n# maxval next\n255\n" % (w, h) + raw


def encode_case(rng: random.Random, family: str, index: int) -> dict:
    """{'pnm', 'args', 'pixels' (expected expanded pixels), 'ctype', 'comp', 'filter', 'crc'}."""
    ch = pick(rng, [1, 3])
    w, h = ri(rng, 8, 96), ri(rng, 2, 64)
    comp, filt, crc, palette, comments = 0, 0, False, False, False
    style = pick(rng, ["noise", "gradient", "blocks"])
    if family == "enc_raw":
        filt = pick(rng, [0, 1])
    elif family in ("enc_rle", "enc_lz"):
        comp = 1 if family == "enc_rle" else 2
        filt = 0
        w = ri(rng, 150, 260)
        style = "runs"
    elif family == "enc_filters":
        comp, filt = pick(rng, [0, 1]), pick(rng, [2, 3])
        style = pick(rng, ["noise", "gradient"])
    elif family == "enc_palette":
        ch, palette, comp, filt = 3, True, pick(rng, [0, 1]), pick(rng, [0, 1])
        style = "palette"
    else:
        kind = index % 3
        comp = pick(rng, [0, 1])
        if kind == 0:
            ch = 4
        elif kind == 1:
            comments = True
        else:
            crc = True
    if style == "runs":
        raw = bytearray(pixels(rng, w, h, ch, "noise"))
        for y in range(0, h, max(1, h // 3)):  # a flat row: one run of w*ch >= 150 bytes
            raw[y * w * ch:(y + 1) * w * ch] = bytes([ri(rng, 0, 255)]) * (w * ch)
        raw = bytes(raw)
    elif style == "palette":
        raw = pixels(rng, w, h, 3, "palette", ri(rng, 2, 256))
    else:
        raw = pixels(rng, w, h, ch, style)
    args = ["--compression", ["raw", "rle", "lz"][comp], "--filter", ["none", "sub", "up", "avg"][filt]]
    if crc:
        args.append("--crc")
    if palette:
        args.append("--palette")
    ctype = 3 if palette else {1: 0, 3: 2, 4: 6}[ch]
    return {"pnm": pnm_file(rng, w, h, ch, raw, comments), "args": args, "pixels": raw, "ctype": ctype,
            "comp": comp, "filter": filt, "crc": crc, "width": w, "height": h}


def check_encoded(case: dict, data: bytes | None) -> str | None:
    """None when the agent's file decodes (strictly) to the input with the requested options."""
    if data is None:
        return "no output file"
    try:
        img = K.decode(data)
    except K.Invalid as exc:
        return f"the verifier's decoder rejects it: {exc}"
    if (img["width"], img["height"]) != (case["width"], case["height"]):
        return "wrong dimensions"
    if img["ctype"] != case["ctype"] or img["compression"] != case["comp"] or img["crc"] != case["crc"]:
        return "wrong colour type, compression or CRC flag"
    if any(f != case["filter"] for f in img["filters"]):
        return "a row does not use the requested filter"
    if img["pixels"] != case["pixels"]:
        return "pixels differ"
    return None
