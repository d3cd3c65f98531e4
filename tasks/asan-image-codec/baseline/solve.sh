#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: what a first pass with the compiler and the public tests finds. The build is repaired (the
# missing source in the Makefile, the misspelled sanitizer, the kimg_write_pnm prototype), the signed shift in
# kimg_be32 that UBSan reports on every CRC, and the two TEXT bugs the public sample shows (the key copied into a
# fixed stack buffer without a length check, the key read after free on the error path). Everything else stays
# as shipped.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path


def sub(path, old, new):
    p = Path(path)
    s = p.read_text()
    if old not in s:
        raise SystemExit(f"{path}: pattern not found: {old[:50]!r}")
    p.write_text(s.replace(old, new))


sub("Makefile", "SRCS = src/util.c src/container.c src/codec.c src/encode.c src/imgtool.c",
    "SRCS = src/util.c src/container.c src/codec.c src/pnm.c src/encode.c src/imgtool.c")
sub("Makefile", "-fsanitize=adress,undefined", "-fsanitize=address,undefined")
sub("src/pnm.c", "int kimg_write_pnm(const char *path, struct kimg_image *img, int flags)\n",
    "int kimg_write_pnm(const char *path, const struct kimg_image *img)\n")
sub("src/util.c", "return (p[0] << 24) | (p[1] << 16) | (p[2] << 8) | p[3];",
    "return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];")
sub("src/container.c", """    if (keylen < 1)
        return invalid("empty TEXT key");""", """    if (keylen < 1 || keylen > 79)
        return invalid("bad TEXT key length");""")
sub("src/container.c", """            free(t);
            kimg_set_error("bad character in TEXT key \\"%s\\"", t->key);""",
    """            kimg_set_error("bad character in TEXT key \\"%s\\"", t->key);
            free(t);""")
PY
make asan
make test || true
