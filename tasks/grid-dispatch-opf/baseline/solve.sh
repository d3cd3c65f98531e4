#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes the one-line bugs of the base-case OPF (susceptance, slack injections, piecewise slopes,
# out-of-service units, ratings in per unit and in both directions) and writes a thin dispatch.py; no islands,
# no N-1 security constraints, no prices.
set -euo pipefail
cd /app
sed -i 's|^    return x$|    return 1.0 / x|; s|injections_pu\[: len(keep)\]|injections_pu[keep]|' gridopt/dcflow.py
sed -i 's|c_b / width|(c_b - c_a) / width|' gridopt/costs.py
sed -i 's|generators=list(all_gens),|generators=[gen for gen in all_gens if gen.in_service],|' gridopt/network.py
sed -i 's|^    rates = np.array(\[line.rate_mw for line in net.lines\])$|    rates = np.array([line.rate_mw for line in net.lines]) / base|; s|^    b_ub = rates - base_flow$|    b_ub = np.concatenate([rates - base_flow, rates + base_flow]); a_ub = np.vstack([a_ub, -a_ub])|' gridopt/optimizer.py
cat > /app/dispatch.py <<'PY'
import json
import sys

sys.path.insert(0, "/app")
from gridopt import load_network, optimise_dispatch

net = load_network(sys.argv[1])
result = optimise_dispatch(net)
out = {"status": result.status}
if result.status == "optimal":
    out["total_cost"] = result.total_cost
    out["dispatch_mw"] = {g.id: result.dispatch_mw.get(g.id, 0.0) for g in net.all_generators}
    out["flows_mw"] = {l.id: result.flows_mw.get(l.id, 0.0) for l in net.all_lines}
with open(sys.argv[2], "w") as handle:
    json.dump(out, handle, indent=2)
PY
python3 dispatch.py examples/case_a.json /tmp/case_a.out.json || true
