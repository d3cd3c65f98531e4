# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Solve the DC optimal power flow of a network file: python3 dispatch.py NETWORK.json OUT.json"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gridopt import load_network, optimise_dispatch  # noqa: E402


def main() -> None:
    net = load_network(sys.argv[1])
    result = optimise_dispatch(net)
    out = {"status": result.status}
    if result.status == "optimal":
        dispatch = {gen.id: 0.0 for gen in net.all_generators}
        dispatch.update(result.dispatch_mw)
        flows = {line.id: 0.0 for line in net.all_lines}
        flows.update(result.flows_mw)
        out.update(total_cost=result.total_cost, dispatch_mw=dispatch, flows_mw=flows, lmp=result.lmp,
                   islanding_contingencies=result.islanding_contingencies)
    else:
        out.update(total_cost=None, dispatch_mw={}, flows_mw={})
    Path(sys.argv[2]).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
