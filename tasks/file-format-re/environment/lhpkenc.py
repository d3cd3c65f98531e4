# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""LHPK reference encoder (shipped compiled only)."""
import os
import struct
import sys
import zlib

_M = b"LHPK"
_X = b"LHIX"


def _v(n):
    o = bytearray()
    while True:
        b = n & 127
        n >>= 7
        if n:
            o.append(b | 128)
        else:
            o.append(b)
            return bytes(o)


def _c(k, f, b):
    h = k + bytes([f]) + b
    return h + struct.pack("<I", zlib.crc32(h))


def _walk(root):
    out = []
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for fn in sorted(files):
            full = os.path.join(base, fn)
            if os.path.isfile(full) and not os.path.islink(full):
                out.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(out)


def pack(root, chunk_size=16384, store=False, index=True, banner=True):
    o = bytearray(_M + bytes([1, 1 if index else 0, 0, 0]))
    if banner:
        t = b"lhpkenc 1.4"
        o += _c(b"t", 0, _v(len(t)) + t)
    ix = []
    names = _walk(root)
    for n in names:
        with open(os.path.join(root, n), "rb") as h:
            d = h.read()
        off = len(o)
        ps = [d[i:i + chunk_size] for i in range(0, len(d), chunk_size)] or [b""]
        for k, p in enumerate(ps):
            f = 2 if k < len(ps) - 1 else 0
            pl = p
            if not store and p:
                z = zlib.compress(p, 6)
                if len(z) < len(p):
                    pl, f = z, f | 1
            b = _v(len(pl)) + pl
            if k == 0:
                r = n.encode("utf-8")
                o += _c(b"F", f, _v(len(r)) + r + _v(len(d)) + b)
            else:
                o += _c(b"C", f, b)
        ix.append((n, off, len(d)))
    o += _c(b"E", 0, _v(len(names)))
    if index:
        b = bytearray(_v(len(ix)))
        for n, off, s in ix:
            r = n.encode("utf-8")
            b += _v(len(r)) + r + _v(off) + _v(s)
        o += b + struct.pack("<II", zlib.crc32(b), len(b)) + _X
    return bytes(o)


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="lhpkenc", description="Encode a directory tree as an LHPK archive.")
    ap.add_argument("directory")
    ap.add_argument("archive")
    ap.add_argument("--chunk-size", type=int, default=16384, help="raw bytes per chunk (default 16384)")
    ap.add_argument("--store", action="store_true", help="never compress")
    ap.add_argument("--no-index", action="store_true", help="omit the index footer")
    ap.add_argument("--no-banner", action="store_true", help="omit the encoder banner chunk")
    a = ap.parse_args(argv)
    if a.chunk_size < 1:
        ap.error("chunk size must be positive")
    data = pack(a.directory, a.chunk_size, a.store, not a.no_index, not a.no_banner)
    with open(a.archive, "wb") as h:
        h.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
