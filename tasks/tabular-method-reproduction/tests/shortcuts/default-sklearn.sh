#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: ignores the note's method and fits scikit-learn's default gradient boosting on ordinal-coded columns
set -euo pipefail
cat > /app/train.py <<'PY'
import argparse, csv, os, pickle
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
p = argparse.ArgumentParser(); p.add_argument("--data"); p.add_argument("--out"); a = p.parse_args()
rows = list(csv.DictReader(open(a.data)))
num = sorted(k for k in rows[0] if k.startswith("n_")); cat = sorted(k for k in rows[0] if k.startswith("c_"))
codes = {c: {v: i for i, v in enumerate(sorted({r[c] for r in rows}))} for c in cat}
def feats(rs):
    return np.array([[float(r[c]) if r[c] else np.nan for c in num] + [codes[c].get(r[c], -1) for c in cat] for r in rs])
model = HistGradientBoostingClassifier(random_state=0).fit(feats(rows), [int(r["target"]) for r in rows])
os.makedirs(a.out, exist_ok=True)
pickle.dump((num, cat, codes, model), open(os.path.join(a.out, "m.pkl"), "wb"))
PY
cat > /app/predict.py <<'PY'
import argparse, csv, os, pickle
os.environ["OMP_NUM_THREADS"] = "1"
import numpy as np
p = argparse.ArgumentParser(); p.add_argument("--model"); p.add_argument("--data"); p.add_argument("--out")
a = p.parse_args()
num, cat, codes, model = pickle.load(open(os.path.join(a.model, "m.pkl"), "rb"))
rows = list(csv.DictReader(open(a.data)))
x = np.array([[float(r[c]) if r[c] else np.nan for c in num] + [codes[c].get(r[c], -1) for c in cat] for r in rows])
with open(a.out, "w") as f:
    f.write("row_id,prob\n")
    for r, q in zip(rows, model.predict_proba(x)[:, 1]):
        f.write(f"{r['row_id']},{q:.6f}\n")
PY
