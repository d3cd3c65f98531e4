#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the method of paper.md implemented faithfully (no row dropping, log income, per-fold
# median/standardise/one-hot fit on training folds only, five stratified folds grouped by customer and shuffled
# with the seed, seeded models, macro-F1 per fold with population std) plus the Table 2 ablation (application-level
# folds; raw income; no credit history; no categories), with the model definitions in study/models.py fixed:
# the pilot values that reproduce Table 1 are a tree leaf size of 5 and k = 15 neighbours.
set -euo pipefail
cd /app
sed -i 's/random_state=0/random_state=seed/g; s/n_neighbors=5)/n_neighbors=15)/; s/min_samples_leaf=10,/min_samples_leaf=5,/' study/models.py
grep -q 'n_neighbors=15' study/models.py
grep -q 'max_depth=6, min_samples_leaf=5,' study/models.py
cp /solution/reproduce.py /app/reproduce.py
python3 reproduce.py data/loans.csv 7 results-table1.json
python3 -c "import json; print(json.load(open('/app/results-table1.json'))['ranking'])"
