#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the method (clipping, median fill with indicators, training-only scaling, out-of-fold
# group-fold target encoding with the right prior, grouped validation split, Platt calibration) but keeps the
# draft's positional column reading, so every table whose columns come in another order fails.
set -euo pipefail
cp /solution/tabmethod/features.py /solution/tabmethod/encoding.py /solution/tabmethod/model.py /app/tabmethod/
cd /app
python3 train.py --data data/train.csv --out /tmp/model
python3 predict.py --model /tmp/model --data data/test.csv --out /tmp/pred.csv
