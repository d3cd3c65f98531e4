# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of grid-dispatch-opf: run ``/app/dispatch.py NETWORK.json OUT.json`` on unseen networks.

Hidden networks come from tests/netgen.py with the verifier's seed, seven families; tests/reference.py is an
independent DC-OPF (PTDF + HiGHS) giving the expected answer. The public networks are graded from the
verifier's own copies in tests/public/ (identical to environment/examples/), never from /app.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from netgen import FAMILIES, make_network
from reference import _on, islands, ptdf, solve

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir

SEED = 46017
PER_FAMILY = 5
APP = "/app"
PUBLIC = Path(__file__).resolve().parent / "public"
MW_TOL = 0.1
PHYS_TOL = 1e-3
COST_TOL = 1e-4
COST_BOUND = 1e-2


def num(value) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return float(value)


class Runner:
    def __init__(self) -> None:
        self.runner = AgentRunner(APP, timeout_sec=20.0)
        self.dir = work_dir("grid-")

    def run(self, name: str, net: dict) -> dict | None:
        path = self.dir / f"{name}.json"
        path.write_text(json.dumps(net, indent=1), encoding="utf-8")
        out = writable_dir(self.dir / f"{name}-out") / "out.json"
        run = self.runner.run([sys.executable, f"{APP}/dispatch.py", str(path), str(out)])
        text = read_regular_file(out) if run.ok else None
        try:
            got = json.loads(text) if text is not None else None
        except ValueError:
            return None
        return got if isinstance(got, dict) else None


def status_ok(got, exp) -> bool:
    return isinstance(got, dict) and got.get("status") == exp["status"]


def mapping_close(got, exp, key) -> bool:
    if not status_ok(got, exp) or not isinstance(got.get(key), dict):
        return False
    values = got[key]
    return set(map(str, values)) == set(exp[key]) and all(
        (v := num(values.get(k))) is not None and abs(v - e) <= MW_TOL for k, e in exp[key].items()
    )


def cost_error(got, exp) -> float:
    if not status_ok(got, exp):
        return 1.0
    value = num(got.get("total_cost"))
    if value is None:
        return 1.0
    return min(1.0, abs(value - exp["total_cost"]) / max(abs(exp["total_cost"]), 1.0))


def cost_score(error: float) -> float:
    if error <= COST_TOL:
        return 1.0
    if error >= COST_BOUND:
        return 0.0
    return (COST_BOUND - error) / (COST_BOUND - COST_TOL)


def physically_feasible(net, got) -> bool:
    """The agent's dispatch balances the load of every island, respects unit limits and line ratings, and its flows match it."""
    if not isinstance(got, dict) or got.get("status") != "optimal" or not isinstance(got.get("dispatch_mw"), dict):
        return False
    if not isinstance(got.get("flows_mw"), dict):
        return False
    m, lines, idx = ptdf(net)
    inj = [0.0] * len(idx)
    for ld in net["loads"]:
        inj[idx[str(ld["bus"])]] -= float(ld["p_mw"])
    total = 0.0
    for gen in net["generators"]:
        p = num(got["dispatch_mw"].get(str(gen["id"])))
        if p is None:
            return False
        if _on(gen.get("in_service")):
            if p < float(gen.get("pmin_mw", 0.0)) - PHYS_TOL or p > float(gen["pmax_mw"]) + PHYS_TOL:
                return False
        elif abs(p) > PHYS_TOL:
            return False
        inj[idx[str(gen["bus"])]] += p
        total += p
    comp = islands(net)
    for label in set(comp):
        if abs(math.fsum(v for k, v in enumerate(inj) if comp[k] == label)) > PHYS_TOL:
            return False
    flows = m @ inj
    for r, ln in enumerate(lines):
        if abs(flows[r]) > float(ln["rate_mw"]) + PHYS_TOL:
            return False
        reported = num(got["flows_mw"].get(str(ln["id"])))
        if reported is None or abs(reported - flows[r]) > MW_TOL:
            return False
    return True


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    runner = Runner()

    public_ok = []
    for name in ("case_a", "case_b"):
        net = json.loads((PUBLIC / f"{name}.json").read_text(encoding="utf-8"))
        exp = solve(net)
        got = runner.run(f"public-{name}", net)
        public_ok.append(
            status_ok(got, exp) and cost_error(got, exp) <= 1e-4
            and mapping_close(got, exp, "dispatch_mw") and mapping_close(got, exp, "flows_mw")
        )
    card.fraction("public_examples", 1, public_ok, visibility="public", detail="public example networks solved")

    cases = []
    for family in FAMILIES:
        for i in range(PER_FAMILY):
            net = make_network(stress.rng(seed, family, i), family)
            cases.append((net, solve(net), runner.run(f"{family}-{i}", net)))
    feasible = [(n, e, g) for n, e, g in cases if e["status"] == "optimal"]

    card.fraction("hidden_status", 1.5, [status_ok(g, e) for _, e, g in cases], detail="status right")
    scores = [cost_score(cost_error(g, e)) for _, e, g in feasible]
    card.add(
        "hidden_total_cost", 3, math.fsum(scores) / len(scores), kind="continuous",
        detail="per network: relative total_cost error 1e-4 -> full, 1e-2 -> none; mean over feasible networks",
    )
    card.fraction(
        "hidden_dispatch", 2.5, [mapping_close(g, e, "dispatch_mw") for _, e, g in feasible],
        detail="every generator within 0.1 MW",
    )
    card.fraction(
        "hidden_flows", 2, [mapping_close(g, e, "flows_mw") for _, e, g in feasible],
        detail="every line flow within 0.1 MW",
    )
    card.fraction(
        "hidden_physical_feasibility", 2, [physically_feasible(n, g) for n, _, g in feasible],
        detail="balance, unit limits, line ratings (1e-3 MW) and consistent flows",
    )
    card.write()


if __name__ == "__main__":
    main()
