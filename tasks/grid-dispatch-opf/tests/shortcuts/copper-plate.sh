#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: merit-order dispatch on a copper plate (one generic LP without the network), flows reported from it
set -euo pipefail
cd /app
cat > dispatch.py <<'PY'
import json
import sys

import numpy as np
from scipy.optimize import linprog

net = json.load(open(sys.argv[1]))
on = lambda item: item.get("in_service", True) is not False
gens = [g for g in net["generators"] if on(g)]
load = sum(ld["p_mw"] for ld in net["loads"])
cols, cost, bounds = [], [], []
for k, g in enumerate(gens):
    if g["cost"]["type"] == "linear":
        segs = [(g["pmax_mw"] - g["pmin_mw"], g["cost"]["c1"])]
    else:
        pts = g["cost"]["points"]
        segs = [(b[0] - a[0], (b[1] - a[1]) / (b[0] - a[0])) for a, b in zip(pts, pts[1:])]
    for width, slope in segs:
        cols.append(k); cost.append(slope); bounds.append((0, width))
floor = sum(g["pmin_mw"] for g in gens)
res = linprog(cost, A_eq=np.ones((1, len(cost))), b_eq=[load - floor], bounds=bounds, method="highs")
if res.status != 0:
    json.dump({"status": "infeasible"}, open(sys.argv[2], "w"))
    sys.exit()
disp = {g["id"]: 0.0 for g in net["generators"]}
for g in gens:
    disp[g["id"]] = g["pmin_mw"]
for v, k in enumerate(cols):
    disp[gens[k]["id"]] += res.x[v]
ids = [b["id"] for b in net["buses"]]
idx = {b: i for i, b in enumerate(ids)}
slack = next(i for i, b in enumerate(net["buses"]) if b["type"] == "slack")
lines = [ln for ln in net["lines"] if on(ln)]
bb = np.zeros((len(ids), len(ids)))
for ln in lines:
    i, j, b = idx[ln["from"]], idx[ln["to"]], 1 / ln["x"]
    bb[i, i] += b; bb[j, j] += b; bb[i, j] -= b; bb[j, i] -= b
inj = np.zeros(len(ids))
for g in gens:
    inj[idx[g["bus"]]] += disp[g["id"]]
for ld in net["loads"]:
    inj[idx[ld["bus"]]] -= ld["p_mw"]
keep = [i for i in range(len(ids)) if i != slack]
theta = np.zeros(len(ids))
theta[keep] = np.linalg.lstsq(bb[np.ix_(keep, keep)], inj[keep], rcond=None)[0]
flows = {ln["id"]: 0.0 for ln in net["lines"]}
for ln in lines:
    flows[ln["id"]] = (theta[idx[ln["from"]]] - theta[idx[ln["to"]]]) / ln["x"]
total = 0.0
for g in gens:
    c = g["cost"]
    if c["type"] == "linear":
        total += c.get("c0", 0) + c["c1"] * disp[g["id"]]
    else:
        total += float(np.interp(disp[g["id"]], [p[0] for p in c["points"]], [p[1] for p in c["points"]]))
json.dump({"status": "optimal", "total_cost": total, "dispatch_mw": disp, "flows_mw": flows}, open(sys.argv[2], "w"))
PY
