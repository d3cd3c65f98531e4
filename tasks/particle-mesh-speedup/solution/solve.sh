#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: a working radix-2 FFT (bit reversal from index 1, folded frequencies in the Green's table,
# conjugate twiddles for the inverse) with precomputed tables; four-node CIC deposit and gather that cope with
# x/h rounding up to G; a periodic wrap that maps negatives into [0, L); comments and blank lines inside the
# particle list.
set -euo pipefail
cp /solution/pm2d/src/*.c /solution/pm2d/src/*.h /app/pm2d/src/
cd /app/pm2d
make -B
./pm2d examples/public.in /tmp/public.out
