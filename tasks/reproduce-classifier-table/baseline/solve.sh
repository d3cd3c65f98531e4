#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: the naive reproduction -- faithful preprocessing, seeded models with the pilot values, but
# stratified folds over applications (ignoring the customer grouping) and no Table 2 ablation.
set -euo pipefail
cd /app
sed -i 's/random_state=0/random_state=seed/g; s/n_neighbors=5)/n_neighbors=15)/; s/min_samples_leaf=10,/min_samples_leaf=5,/' study/models.py
cp /solution/reproduce.py /app/reproduce.py
python3 reproduce.py data/loans.csv 7 /tmp/table1.json
