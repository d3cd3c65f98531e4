# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Build-time: write the sample trees and encode them (deterministic).

Revision 1 samples come from the shipped encoder; the revision 2 ones (name ending in -v2) from the team's
current encoder, lhpkenc 2.1, whose packing routine is kept here (it is not shipped).
"""
import os
import random
import struct
import subprocess
import sys
import zlib

SAMPLES = {
    "hello": ([], {"hello.txt": b"Hello, LHPK!\n"}),
    "docs": ([], None),
    "big": (["--chunk-size", "4096"], None),
    "raw": (["--store", "--no-index"], None),
}
CANARY_PY = b"# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary\n"
SAMPLES_V2 = {  # name: (chunk size, compress, index)
    "photos-v2": (16384, True, True),
    "logs-v2": (2048, True, True),
    "mixed-v2": (700, False, False),
}


def _v(n):
    o = bytearray()
    while True:
        b = n & 127
        n >>= 7
        o.append(b | 128 if n else b)
        if not n:
            return bytes(o)


def _c(k, f, b):
    h = k + bytes([f]) + b
    return h + struct.pack("<I", zlib.crc32(h))


def pack_v2(files, chunk_size, compress, index):
    """lhpkenc 2.1: files is [(name, data)] sorted by name."""
    o = bytearray(b"LHPK" + bytes([2, 1 if index else 0, 0, 0]))
    t = b"lhpkenc 2.1"
    o += _c(b"t", 0, _v(len(t)) + t)
    ix, seen = [], {}
    for number, (n, d) in enumerate(files):
        off = len(o)
        r = n.encode("utf-8")
        if d in seen:
            o += _c(b"L", 0, _v(len(r)) + r + _v(seen[d]))
        else:
            seen[d] = number
            s, z = d, 0
            if compress and d:
                p = zlib.compress(d, 6)
                if len(p) < len(d):
                    s, z = p, 1
            ps = [s[i:i + chunk_size] for i in range(0, len(s), chunk_size)] or [b""]
            for k, p in enumerate(ps):
                f = z | (2 if k < len(ps) - 1 else 0)
                b = _v(len(p)) + p
                if k == 0:
                    o += _c(b"F", f, _v(len(r)) + r + _v(len(d)) + struct.pack("<I", zlib.crc32(d)) + b)
                else:
                    o += _c(b"C", f, b)
        ix.append((n, off, len(d)))
    o += _c(b"E", 0, _v(len(files)))
    if index:
        b = bytearray(_v(len(ix)))
        for n, off, size in ix:
            r = n.encode("utf-8")
            b += _v(len(r)) + r + _v(off) + _v(size)
        o += b + struct.pack("<II", zlib.crc32(b), len(b)) + b"LHIX"
    return bytes(o)


def tree(name, rnd):
    if name == "docs":
        return {
            "README.md": b"<!-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary -->\n# Project\n\n" + b"Some text that repeats. " * 60 + b"\n",
            "docs/guide.txt": b"".join(b"line %d of the guide\n" % i for i in range(300)),
            "docs/empty.txt": b"",
            "data/table.csv": b"id,value\n" + b"".join(b"%d,%d\n" % (i, rnd.randrange(10**6)) for i in range(400)),
        }
    if name == "big":
        return {
            "blob.bin": bytes(rnd.randrange(256) for _ in range(10000)),
            "log/app.log": b"".join(b"2024-01-%02d INFO request %d ok\n" % (i % 28 + 1, i) for i in range(900)),
        }
    if name == "raw":
        return {"a/b/c.txt": b"deep file\n", "x.bin": bytes(range(256)) * 3, "z.txt": b"z" * 200}
    if name == "photos-v2":
        cover = bytes(rnd.randrange(256) for _ in range(3000))
        notes = b"".join(b"shot %d: f/2.8 1/250s ISO 200\n" % i for i in range(120))
        return {
            "album/cover.jpg": cover,
            "album/notes.txt": notes,
            "backup/cover.jpg": cover,
            "backup/notes-copy.txt": notes,
            "index.html": b"<!-- lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary -->\n<html><body>"
                          + b"<img src='album/cover.jpg'>" * 30 + b"</body></html>\n",
            "thumbs/cover-small.jpg": cover[:700],
        }
    if name == "logs-v2":
        return {
            "app/server.log": b"".join(b"2024-03-%02d 12:%02d:%02d GET /api/items/%d 200 %dms\n"
                                       % (i % 28 + 1, i % 60, (i * 7) % 60, i, rnd.randrange(900))
                                       for i in range(2500)),
            "app/core.bin": bytes(rnd.randrange(256) for _ in range(5000)),
            "README": b"rotated weekly\n",
        }
    if name == "mixed-v2":
        return {
            "données/été.txt": "Résumé de l'été, très chaud.\n".encode() * 40,
            "empty-a": b"",
            "empty-b": b"",
            "src/main.py": CANARY_PY + b"print('hi')\n" * 150,
            "src/copy/main.py": CANARY_PY + b"print('hi')\n" * 150,
        }
    raise KeyError(name)


def main(out, encoder):
    rnd = random.Random(1234)
    for name, (flags, files) in SAMPLES.items():
        files = files or tree(name, rnd)
        root = os.path.join(out, name)
        for rel, data in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as h:
                h.write(data)
        subprocess.run([sys.executable, encoder, *flags, root, os.path.join(out, name + ".lhpk")], check=True)
    for name, (chunk_size, compress, index) in SAMPLES_V2.items():
        files = tree(name, rnd)
        root = os.path.join(out, name)
        for rel, data in files.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as h:
                h.write(data)
        with open(os.path.join(out, name + ".lhpk"), "wb") as h:
            h.write(pack_v2(sorted(files.items()), chunk_size, compress, index))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
