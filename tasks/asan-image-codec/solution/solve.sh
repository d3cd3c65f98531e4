#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the repaired sources. Build (Makefile source list and sanitizer spelling, the kimg_write_pnm
# prototype); decoder: 64-bit bounds checks on chunk lengths, per-side and pixel-count limits in 64-bit
# arithmetic, CRC over type and data without the signed shift in kimg_be32 and without freeing the stream on
# the error path (double free), TEXT keys checked before they are copied (stack overflow) and never read after
# free, DATA chunks appended (not replaced), ancillary chunks skipped and unknown critical ones rejected,
# repeated HEAD/PLTE, PLTE after DATA and bytes after TAIL rejected, raw size checked, RLE/LZ packets checked
# against both the stream and the image (literal off-by-one, run and match overruns, distance 0 or before the
# start), overlapping LZ matches copied byte by byte, first-row up/avg filters without a row above, avg without
# 8-bit overflow, unknown filters rejected, palette indices checked; encoder: RLE runs of at most 129 and LZ
# matches of at most 130, a compression bound that holds for incompressible data (heap overflow), PLTE length in bytes, CRC over type and data, PNM comments and P7 RGB_ALPHA input.
set -euo pipefail
cp /solution/app/Makefile /app/Makefile
cp /solution/app/include/kimg.h /app/include/kimg.h
cp /solution/app/src/*.c /app/src/
cd /app
make clean
make all asan
make test
