#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: fixes only the reactance/susceptance mix-up and writes a thin dispatch.py.
set -euo pipefail
cd /app
sed -i 's|^    return x$|    return 1.0 / x|' gridopt/dcflow.py
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
