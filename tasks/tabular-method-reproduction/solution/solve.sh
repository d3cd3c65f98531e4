#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the method of paper.md section 2 implemented faithfully in the project's package: columns read
# by name; numeric fields clipped to the training 1st/99th percentiles, filled with the training median plus a
# missing indicator and scaled with training statistics; categories target-encoded with smoothing 10 towards the
# fitting rows' prior, out of fold over five group folds on training rows; a group-held-out 20 % validation split;
# balanced logistic model (C = 0.5) and Platt calibration on the validation groups.
set -euo pipefail
cp /solution/tabmethod/*.py /app/tabmethod/
cd /app
python3 train.py --data data/train.csv --out /tmp/model
python3 predict.py --model /tmp/model --data data/test.csv --out /tmp/pred.csv
head -3 /tmp/pred.csv
