#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: gives up on the broken FFT and switches to the direct DFT, the slow but correct reference
# path; leaves the periodic wrap, the parser and the all-cell deposit and gather alone.
set -euo pipefail
cd /app/pm2d
sed -i 's/^#define PM_FAST_POISSON 1$/#define PM_FAST_POISSON 0/' src/poisson.c
grep -q '^#define PM_FAST_POISSON 0$' src/poisson.c
make -B
