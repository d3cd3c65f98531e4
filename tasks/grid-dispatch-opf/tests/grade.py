# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of grid-dispatch-opf: run ``/app/dispatch.py NETWORK.json OUT.json`` on unseen networks.

Hidden networks come from tests/netgen.py with the verifier's seed, seven families; tests/reference.py is an
independent DC-OPF (PTDF + HiGHS) giving the expected answer. The public networks are graded from the
verifier's own copies in tests/public/ (identical to environment/examples/), never from /app.
"""

from __future__ import annotations

import json
import math
import resource
import sys

import numpy as np
from pathlib import Path

from netgen import FAMILIES, SECURE_FAMILIES, make_network
from reference import LmpBounds, _emergency, _on, islands, post_contingency_flows, ptdf, solve

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_file, work_dir, writable_dir

SEED = 46017
PER_FAMILY = 4  # per N-1 family
PER_BASE_FAMILY = 3  # per family without contingencies
LMP_TOL = 1e-3  # $/MWh, plus LMP_REL of the price
LMP_REL = 1e-5
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


RUN_CPU_SEC = 20  # CPU seconds per network (prlimit; the hard limit 2 s above): a busy machine costs a run nothing
RUN_WALL_SEC = 120.0  # only a guard against a program that sleeps or waits: CPU time decides, not the clock
MAX_WALL_OUTS = 3  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 200.0  # CPU seconds of all runs together; later runs fail without starting


class Runner:
    """Runs dispatch.py under a CPU-time limit per network, so a loaded machine slows a run but never fails it."""

    def __init__(self) -> None:
        self.runner = AgentRunner(APP, timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.dir = work_dir("grid-")

    def run(self, name: str, net: dict) -> dict | None:
        path = self.dir / f"{name}.json"
        path.write_text(json.dumps(net, indent=1), encoding="utf-8")
        out = writable_dir(self.dir / f"{name}-out") / "out.json"
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if usage.ru_utime + usage.ru_stime > AGENT_CPU_BUDGET_SEC:
            return None
        limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
        run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, f"{APP}/dispatch.py", str(path), str(out)])
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
    for lines_k, flows_k in post_contingency_flows(net, np.array(inj)):
        for ln, f in zip(lines_k, flows_k):
            if abs(f) > _emergency(ln) + PHYS_TOL:
                return False
    return True


def lmp_ok(got, exp, net) -> bool:
    """Every bus priced: equal to the reference's dual price, or else within the cost slopes of a small load change
    at that bus (degenerate optima have a range of correct prices); null where the bus's island has no unit."""
    if not status_ok(got, exp) or not isinstance(got.get("lmp"), dict):
        return False
    prices = got["lmp"]
    if set(map(str, prices)) != set(exp["lmp"]):
        return False
    judge = None
    for bus, ref in exp["lmp"].items():
        value = prices.get(bus)
        if ref is None:
            if value is not None:
                return False
            continue
        value = num(value)
        if value is None:
            return False
        tol = LMP_TOL + LMP_REL * abs(value)
        if abs(value - ref) <= tol:
            continue
        judge = judge or LmpBounds(net)
        lo, hi = judge(bus)
        if not lo - tol <= value <= hi + tol:
            return False
    return True


def islanding_ok(got, exp) -> bool:
    if not status_ok(got, exp) or not isinstance(got.get("islanding_contingencies"), list):
        return False
    listed = got["islanding_contingencies"]
    return all(isinstance(v, str) for v in listed) and len(set(listed)) == len(listed) and set(listed) == set(
        exp["islanding_contingencies"])


def solved(net, got, exp) -> bool:
    return (status_ok(got, exp) and cost_error(got, exp) <= COST_TOL and mapping_close(got, exp, "dispatch_mw")
            and mapping_close(got, exp, "flows_mw"))


def main() -> None:
    seed = stress.seed_from_env(SEED)
    card = Scorecard()
    card.metadata["seed"] = seed
    runner = Runner()

    public_ok = []
    for name in ("case_a", "case_b", "case_c"):
        net = json.loads((PUBLIC / f"{name}.json").read_text(encoding="utf-8"))
        exp = solve(net)
        got = runner.run(f"public-{name}", net)
        public_ok.append(solved(net, got, exp) and lmp_ok(got, exp, net) and (
            "contingencies" not in net or islanding_ok(got, exp)))
    card.fraction("public_examples", 0.6, public_ok, visibility="public", detail="public example networks solved")

    cases = []
    for family in FAMILIES + SECURE_FAMILIES:
        for i in range(PER_FAMILY if family in SECURE_FAMILIES else PER_BASE_FAMILY):
            net = make_network(stress.rng(seed, family, i), family)
            cases.append((family, net, solve(net), runner.run(f"{family}-{i}", net)))
    feasible = [(f, n, e, g) for f, n, e, g in cases if e["status"] == "optimal"]
    secure = [(f, n, e, g) for f, n, e, g in feasible if f in SECURE_FAMILIES]

    card.fraction("hidden_status", 1.5, [status_ok(g, e) for _, _, e, g in cases], detail="status right")
    scores = [cost_score(cost_error(g, e)) for _, _, e, g in feasible]
    card.add(
        "hidden_total_cost", 2.5, math.fsum(scores) / len(scores), kind="continuous",
        detail="per network: relative total_cost error 1e-4 -> full, 1e-2 -> none; mean over feasible networks",
    )
    card.fraction(
        "hidden_dispatch", 2, [mapping_close(g, e, "dispatch_mw") for _, _, e, g in feasible],
        detail="every generator within 0.1 MW",
    )
    card.fraction(
        "hidden_flows", 1.5, [mapping_close(g, e, "flows_mw") for _, _, e, g in feasible],
        detail="every line flow within 0.1 MW",
    )
    card.fraction(
        "hidden_physical_feasibility", 2, [physically_feasible(n, g) for _, n, _, g in feasible],
        detail="balance, unit limits, line ratings before and after every secured outage (1e-3 MW), consistent flows",
    )
    card.fraction(
        "hidden_n1_secure_dispatch", 2.5,
        [solved(n, g, e) and physically_feasible(n, g) for _, n, e, g in secure],
        detail="N-1 networks: cost, dispatch and flows of the secure optimum, secure after every outage",
    )
    card.fraction(
        "hidden_islanding_contingencies", 0.8, [islanding_ok(g, e) for _, _, e, g in secure],
        detail="N-1 networks: the set of listed outages that would split an island",
    )
    card.fraction(
        "hidden_lmp", 2.5, [lmp_ok(g, e, n) for _, n, e, g in feasible],
        detail="every bus's price: the reference dual, or within the cost slopes of a 0.01 MW load change (1e-3 $/MWh)",
    )
    card.write()


if __name__ == "__main__":
    main()
