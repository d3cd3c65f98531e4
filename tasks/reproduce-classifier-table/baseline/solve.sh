#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: stratified shuffled folds, macro-F1 per fold, std -- but still drops incomplete rows, fits the
# preprocessing on the whole table (leakage), mean imputation, raw income, unseeded models, tree leaf
# size 10, knn k=5.
set -euo pipefail
cp /solution/reproduce.py /app/reproduce.py
cd /app && python3 reproduce.py data/loans.csv 7 /tmp/table1.json
