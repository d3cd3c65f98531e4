# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded hidden cases (hidden): file trees, archives with rare features, and corrupted archives."""

from __future__ import annotations

import random
import struct
import zlib

from lhpkref import Options, chunk, encode, varint

WORDS = ["alpha", "beta", "data", "notes", "img", "src", "lib", "report", "2024", "final", "v2", "tmp", "cfg"]
UNICODE = ["résumé", "données", "über", "日本語", "naïve", "smörgåsbord", "Ελληνικά", "emoji-🙂"]
BANNER = ((0, b"t", b"lhpkenc 1.4"),)
BANNER2 = ((0, b"t", b"lhpkenc 2.1"),)


def randint(rng: random.Random, low: int, high: int) -> int:
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def pick(rng: random.Random, items):
    return items[randint(rng, 0, len(items) - 1)]


def content(rng: random.Random, size: int) -> bytes:
    kind = randint(rng, 0, 3)
    if kind == 0:  # text
        words = [pick(rng, WORDS) for _ in range(64)]
        out = bytearray()
        while len(out) < size:
            out += (" ".join(words[randint(rng, 0, 50):][:8]) + f" {randint(rng, 0, 9999)}\n").encode()
        return bytes(out[:size])
    if kind == 1:  # random bytes
        return bytes(randint(rng, 0, 255) for _ in range(size))
    if kind == 2:  # runs
        out = bytearray()
        while len(out) < size:
            out += bytes([randint(rng, 0, 255)]) * randint(rng, 1, 300)
        return bytes(out[:size])
    return bytes((i * 7 + randint(rng, 0, 3)) % 256 for i in range(size))


def make_tree(rng: random.Random, n_files=(2, 7), max_size=20000, unicode=False, long_names=False,
              empty=0.15) -> list:
    files, used = [], set()
    for _ in range(randint(rng, *n_files)):
        for _try in range(20):
            depth = randint(rng, 0, 3)
            parts = [pick(rng, UNICODE if unicode and rng.random() < 0.5 else WORDS) for _ in range(depth)]
            leaf = pick(rng, UNICODE if unicode and rng.random() < 0.5 else WORDS)
            if long_names and rng.random() < 0.5:
                leaf = "-".join(pick(rng, WORDS) for _ in range(randint(rng, 25, 40)))
            leaf += pick(rng, [".txt", ".bin", ".csv", "", ".log"])
            name = "/".join(parts + [leaf])
            prefixes = {"/".join(name.split("/")[:i]) for i in range(1, len(name.split("/")))}
            clash = name in used or prefixes & used or any(u.startswith(name + "/") for u in used)
            if not clash:
                break
        else:
            continue
        used.add(name)
        size = 0 if rng.random() < empty else randint(rng, 1, max_size)
        files.append((name, content(rng, size)))
    return sorted(files)


def add_duplicates(rng: random.Random, files: list, count: int) -> list:
    """Copies of some contents under new names (a name never clashes with a file or a directory)."""
    tree = dict(files)
    for number in range(count):
        source = pick(rng, sorted(tree))
        name = f"{pick(rng, ['copy', 'backup', 'old', 'mirror'])}{number}/{source.rsplit('/', 1)[-1]}"
        if not any(n == name or n.startswith(name + "/") or name.startswith(n + "/") for n in tree):
            tree[name] = tree[source]
    return sorted(tree.items())


def text(rng: random.Random, size: int) -> bytes:
    out = bytearray()
    while len(out) < size:
        words = " ".join(pick(rng, WORDS) for _ in range(randint(rng, 3, 9)))
        out += f"{words} {randint(rng, 0, 99999)}\n".encode()
    return bytes(out[:size])


def decode_case(rng: random.Random, family: str) -> tuple:
    """(archive bytes, expected {name: bytes})"""
    if family == "basic":
        files = make_tree(rng)
        opts = Options(ancillary=BANNER)
    elif family == "continuation":
        files = make_tree(rng, n_files=(2, 5), max_size=40000, empty=0.0)
        opts = Options(chunk_size=randint(rng, 200, 3000), ancillary=BANNER if rng.random() < 0.5 else ())
    elif family == "no_index":
        files = make_tree(rng)
        opts = Options(index=False, chunk_size=randint(rng, 1000, 8000))
    elif family == "ancillary":
        files = make_tree(rng)
        extra = []
        for _ in range(randint(rng, 1, 4)):
            kind = pick(rng, [b"p", b"m", b"x", b"q"])
            payload = b"\0" * randint(rng, 0, 300) if kind == b"p" else content(rng, randint(rng, 1, 200))
            extra.append((randint(rng, 0, len(files) - 1), kind, payload))
        opts = Options(ancillary=tuple(extra), trailing_ancillary=b"end" * randint(rng, 1, 3),
                       chunk_size=randint(rng, 2000, 9000))
    elif family == "mixed":
        files = make_tree(rng, max_size=30000)
        opts = Options(compress=pick(rng, ["mixed", "always", "never"]), level=pick(rng, [1, 6, 9]),
                       chunk_size=randint(rng, 500, 5000))
    elif family == "names":
        files = make_tree(rng, n_files=(4, 9), unicode=True, long_names=True, empty=0.4, max_size=3000)
        opts = Options(index=rng.random() < 0.5)
    elif family == "large":
        files = make_tree(rng, n_files=(1, 2), max_size=5000) + [("big/" + pick(rng, WORDS) + ".dat",
                                                                  content(rng, randint(rng, 200000, 320000)))]
        files = sorted(dict(files).items())
        opts = Options(chunk_size=pick(rng, [65536, 100000, 250000]))
    elif family == "v2_basic":
        files = add_duplicates(rng, make_tree(rng, empty=0.2), randint(rng, 1, 3))
        opts = Options(version=2, ancillary=BANNER2, index=rng.random() < 0.7)
    elif family == "v2_stream":
        files = make_tree(rng, n_files=(1, 3), max_size=4000, empty=0.0)
        files = sorted(dict(files + [(f"logs/{pick(rng, WORDS)}-{i}.log", text(rng, randint(rng, 30000, 90000)))
                                     for i in range(randint(rng, 1, 2))]).items())
        opts = Options(version=2, chunk_size=randint(rng, 200, 4000),
                       compress=pick(rng, ["auto", "mixed", "always"]), level=pick(rng, [1, 6, 9]),
                       index=rng.random() < 0.5, ancillary=BANNER2 if rng.random() < 0.5 else ())
    elif family == "v2_names":
        files = make_tree(rng, n_files=(4, 8), unicode=True, long_names=True, empty=0.4, max_size=3000)
        files = add_duplicates(rng, files, randint(rng, 1, 4))
        extra = tuple((randint(rng, 0, len(files) - 1), pick(rng, [b"p", b"m", b"q"]),
                       content(rng, randint(rng, 0, 100))) for _ in range(randint(rng, 0, 3)))
        opts = Options(version=2, ancillary=BANNER2 + extra, chunk_size=randint(rng, 300, 2000),
                       compress=pick(rng, ["auto", "never"]), index=rng.random() < 0.5,
                       trailing_ancillary=b"end" if rng.random() < 0.5 else b"")
    elif family == "v2_large":
        big = pick(rng, [text, content])(rng, randint(rng, 200000, 320000))
        files = sorted(dict(make_tree(rng, n_files=(1, 2), max_size=5000)
                            + [("big/a.dat", big), ("big/b.dat", big)]).items())
        opts = Options(version=2, chunk_size=pick(rng, [65536, 100000, 250000]))
    else:
        raise KeyError(family)
    return encode(files, opts, rng), dict(files)


def _recrc(data: bytearray, start: int, end: int) -> None:
    """Recompute the CRC of the chunk data[start:end] (end = position of its CRC)."""
    data[end:end + 4] = struct.pack("<I", zlib.crc32(bytes(data[start:end])))


CORRUPTIONS = ["payload_flip", "crc_flip", "truncated", "bad_magic", "critical_chunk", "path_traversal",
               "absolute_path", "count_mismatch", "index_offset", "trailing_garbage", "orphan_continuation",
               "size_mismatch", "reserved_flag", "bad_zlib", "missing_continuation", "duplicate_name",
               "index_crc", "bad_version"]
CORRUPTIONS_V2 = ["v2_content_crc", "v2_link_forward", "v2_stream_truncated", "v2_bad_version", "v2_link_name"]


def corrupt_case_v2(rng: random.Random, kind: str) -> tuple:
    """(clean revision 2 archive, expected files, corrupted archive)."""
    files = add_duplicates(rng, make_tree(rng, n_files=(2, 4), max_size=3000, empty=0.0), 1)
    expected = dict(files)
    if kind == "v2_content_crc":  # a stored payload byte changed, the chunk CRC recomputed
        opts = Options(version=2, compress="never", index=False, chunk_size=100000)
        clean = encode(files, opts)
        bad = bytearray(clean)
        from lhpkref import Reader
        reader = Reader(bytes(bad), 10)
        reader.take(reader.varint())
        reader.varint()
        reader.take(4)
        length = reader.varint()
        bad[reader.pos + randint(rng, 0, length - 1)] ^= 0x20
        _recrc(bad, 8, reader.pos + length)
    elif kind == "v2_link_forward":
        opts = Options(version=2, chunk_size=1000, index=False)
        clean = encode(files, opts)
        target = files[:1] + [(files[0][0] + ".dup", files[0][1])] + files[1:]
        bad = encode(target, Options(version=2, chunk_size=1000, index=False, link_shift=1 + randint(rng, 0, 2)))
        del opts
    elif kind == "v2_stream_truncated":
        files = sorted(dict(files + [("logs/run.log", text(rng, randint(rng, 20000, 40000)))]).items())
        expected = dict(files)
        opts = Options(version=2, chunk_size=randint(rng, 300, 900), index=False)
        clean = encode(files, opts)
        bad = encode(files, Options(version=2, chunk_size=opts.chunk_size, index=False, drop_last_piece=True))
    elif kind == "v2_bad_version":
        clean = encode(files, Options(version=2, ancillary=BANNER2))
        bad = bytearray(clean)
        bad[4] = 3
    elif kind == "v2_link_name":  # a link whose name is unsafe, taken, or under a file
        clean = encode(files, Options(version=2, index=False))
        first = files[0][0]
        evil = pick(rng, ["../" + first, "/srv/" + first, first, first + "/inner", "a//" + first])
        bad = encode(files + [(evil, files[0][1])], Options(version=2, index=False))
    else:
        raise KeyError(kind)
    return clean, expected, bytes(bad)


def corrupt_case(rng: random.Random, kind: str) -> tuple:
    """(clean archive, expected files, corrupted archive)."""
    files = make_tree(rng, n_files=(2, 4), max_size=3000, empty=0.0)
    opts = Options(index=kind not in ("trailing_garbage",), chunk_size=1000, ancillary=BANNER)
    clean = encode(files, opts)
    expected = dict(files)
    if kind == "payload_flip":
        bad = bytearray(clean)
        pos = 30 + randint(rng, 0, 20)
        bad[pos] ^= 0x10
    elif kind == "crc_flip":
        bad = bytearray(clean)
        first_f = clean.index(b"F", 8 + 2)  # after the banner chunk
        # the banner chunk is 2 + 1 + 11 bytes long, then 4 CRC bytes
        bad[8 + 14 + randint(rng, 0, 3)] ^= 0x01
        del first_f
    elif kind == "truncated":
        bad = bytearray(clean[: randint(rng, 40, len(clean) - 30)])
    elif kind == "bad_magic":
        bad = bytearray(b"LHPX" + clean[4:])
    elif kind == "bad_version":
        bad = bytearray(clean)
        bad[4] = pick(rng, [0, 3, 17])
    elif kind == "critical_chunk":
        files_opts = Options(index=False, chunk_size=1000, ancillary=((1, b"X", b"critical?"),))
        bad = bytearray(encode(files, files_opts))
        clean = encode(files, Options(index=False, chunk_size=1000))
    elif kind in ("path_traversal", "absolute_path", "duplicate_name"):
        evil = {"path_traversal": "../" + files[0][0], "absolute_path": "/tmp/" + files[0][0],
                "duplicate_name": files[0][0]}[kind]
        target = files + [(evil, b"evil\n")] if kind != "duplicate_name" else files + [(evil, b"again\n")]
        bad = bytearray(encode(target, Options(index=False, chunk_size=1000)))
        clean = encode(files, Options(index=False, chunk_size=1000))
    elif kind == "count_mismatch":
        clean = encode(files, Options(index=False))
        bad = bytearray(clean)
        e_start = len(bad) - 4 - 3  # E chunk: 'E', flags, 1-byte varint, crc
        bad[e_start + 2] += 1
        _recrc(bad, e_start, e_start + 3)
    elif kind == "index_offset":
        files2 = files
        clean = encode(files2, Options(chunk_size=1000))
        bad = bytearray(clean)
        crc, length = struct.unpack("<II", bytes(bad[-12:-4]))
        start = len(bad) - 12 - length
        body = bytearray(bad[start:len(bad) - 12])
        # the last byte of the body is the last entry's size varint when < 128; bump the offset before it
        # instead: rebuild the index with a wrong offset for entry 0
        from lhpkref import Reader
        reader = Reader(bytes(body))
        entries = []
        for _ in range(reader.varint()):
            name = reader.take(reader.varint())
            entries.append((name, reader.varint(), reader.varint()))
        entries[0] = (entries[0][0], entries[0][1] + 1, entries[0][2])
        new = bytearray(varint(len(entries)))
        for name, off, size in entries:
            new += varint(len(name)) + name + varint(off) + varint(size)
        bad = bytearray(bad[:start]) + new + struct.pack("<II", zlib.crc32(bytes(new)), len(new)) + b"LHIX"
        del body, crc
    elif kind == "index_crc":
        bad = bytearray(clean)
        bad[-9] ^= 0x40
    elif kind == "trailing_garbage":
        bad = bytearray(clean) + bytes([0x41, 0x00, 0x00])
    elif kind == "orphan_continuation":
        orphan = chunk(b"C", 0, varint(5) + b"hello")
        clean = encode(files, Options(index=False))
        bad = bytearray(clean[:8]) + orphan + clean[8:]
    elif kind == "size_mismatch":
        name, data = files[0]
        raw = name.encode()
        body = varint(len(raw)) + raw + varint(len(data) + 3) + varint(len(data)) + data
        rest = encode(files[1:], Options(index=False))
        clean = encode(files, Options(index=False, compress="never"))
        bad = bytearray(rest[:8]) + chunk(b"F", 0, body) + rest[8:-7] + chunk(b"E", 0, varint(len(files)))
    elif kind == "reserved_flag":
        clean = encode(files, Options(index=False, compress="never"))
        bad = bytearray(clean)
        crc_end = None
        # first chunk is F at offset 8; its flags byte is at 9
        bad[9] |= 0x08
        name_len = bad[10]
        # find the end of the F chunk: name, size varint, payload varint, payload
        from lhpkref import Reader
        reader = Reader(bytes(bad), 10)
        reader.take(reader.varint())
        reader.varint()
        reader.take(reader.varint())
        crc_end = reader.pos
        _recrc(bad, 8, crc_end)
        del name_len
    elif kind == "bad_zlib":
        name, data = files[0]
        raw = name.encode()
        packed = bytearray(zlib.compress(data or b"x", 6))
        packed[len(packed) // 2] ^= 0xFF
        body = varint(len(raw)) + raw + varint(len(data)) + varint(len(packed)) + bytes(packed)
        rest = encode(files[1:], Options(index=False))
        clean = encode(files, Options(index=False))
        bad = bytearray(rest[:8]) + chunk(b"F", 1, body) + rest[8:-7] + chunk(b"E", 0, varint(len(files)))
    elif kind == "missing_continuation":
        name, data = files[0]
        raw = name.encode()
        half = data[: len(data) // 2]
        body = varint(len(raw)) + raw + varint(len(data)) + varint(len(half)) + half
        rest = encode(files[1:], Options(index=False))
        clean = encode(files, Options(index=False))
        bad = bytearray(rest[:8]) + chunk(b"F", 2, body) + rest[8:-7] + chunk(b"E", 0, varint(len(files)))
    else:
        raise KeyError(kind)
    return clean, expected, bytes(bad)


def encode_tree(rng: random.Random, index: int) -> list:
    shapes = [dict(), dict(unicode=True, empty=0.4, max_size=2000), dict(max_size=60000, n_files=(2, 4)),
              dict(long_names=True), dict(n_files=(6, 10), max_size=5000)]
    files = make_tree(rng, **shapes[index % len(shapes)])
    if index % 3 != 2:
        files = add_duplicates(rng, files, randint(rng, 1, 3))
    if index % 2 == 1:
        files = sorted(dict(files + [("logs/big.log", text(rng, randint(rng, 60000, 150000)))]).items())
    return files
