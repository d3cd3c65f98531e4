# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own DC-OPF reference (independent of /app): PTDF formulation solved with HiGHS."""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linprog


def _on(value) -> bool:
    if value is None:
        return True
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    return str(value).strip().lower() in {"1", "true", "yes", "on"}


def islands(data: dict) -> list[int]:
    """The island (connected component over in-service lines) of every bus, numbered from 0."""
    buses = [str(b["id"]) for b in data["buses"]]
    idx = {b: k for k, b in enumerate(buses)}
    adj = [[] for _ in buses]
    for ln in data["lines"]:
        if _on(ln.get("in_service")):
            i, j = idx[str(ln["from"])], idx[str(ln["to"])]
            adj[i].append(j); adj[j].append(i)
    comp = [-1] * len(buses)
    for start in range(len(buses)):
        if comp[start] < 0:
            label = max(comp) + 1
            comp[start], stack = label, [start]
            while stack:
                for nb in adj[stack.pop()]:
                    if comp[nb] < 0:
                        comp[nb] = label; stack.append(nb)
    return comp


def ptdf(data: dict):
    """Injection-to-flow matrix (MW per MW) of the in-service lines; each island's angles are referenced to its
    own bus (the slack in the slack's island), which leaves the flows of a balanced island unchanged."""
    buses = [str(b["id"]) for b in data["buses"]]
    idx = {b: k for k, b in enumerate(buses)}
    slack = next((k for k, b in enumerate(data["buses"]) if str(b.get("type", "pq")).lower() == "slack"), 0)
    lines = [ln for ln in data["lines"] if _on(ln.get("in_service"))]
    n = len(buses)
    comp = islands(data)
    refs = {comp[slack]: slack}
    for k in range(n):
        refs.setdefault(comp[k], k)
    bbus = np.zeros((n, n))
    for ln in lines:
        i, j, b = idx[str(ln["from"])], idx[str(ln["to"])], 1.0 / float(ln["x"])
        bbus[i, i] += b; bbus[j, j] += b; bbus[i, j] -= b; bbus[j, i] -= b
    keep = [k for k in range(n) if k not in refs.values()]
    x = np.zeros((n, n))
    x[np.ix_(keep, keep)] = np.linalg.inv(bbus[np.ix_(keep, keep)])
    m = np.zeros((len(lines), n))
    for r, ln in enumerate(lines):
        i, j, b = idx[str(ln["from"])], idx[str(ln["to"])], 1.0 / float(ln["x"])
        m[r] = b * (x[i] - x[j])
    return m, lines, idx


def cost_of(cost: dict, p: float) -> float:
    if cost["type"] == "linear":
        return float(cost.get("c0", 0.0)) + float(cost["c1"]) * p
    pts = [(float(a), float(c)) for a, c in cost["points"]]
    return float(np.interp(p, [a for a, _ in pts], [c for _, c in pts]))


def _contingencies(data: dict) -> tuple[list[int], list[str]]:
    """Indices (into data["lines"]) of the contingencies that are secured, and the sorted ids of those left out
    because their outage would split an island."""
    spec = data.get("contingencies")
    if spec is None:
        return [], []
    ids = [str(ln["id"]) for ln in data["lines"]]
    wanted = set(ids) if spec == "all" else {str(s) for s in spec}
    base = islands(data)
    n_base = len(set(base))
    secured, islanding = [], []
    for r, ln in enumerate(data["lines"]):
        if ids[r] not in wanted or not _on(ln.get("in_service")):
            continue
        out = dict(data, lines=[dict(l, in_service=False) if q == r else l for q, l in enumerate(data["lines"])])
        if len(set(islands(out))) > n_base:
            islanding.append(ids[r])
        else:
            secured.append(r)
    return secured, sorted(islanding)


def _outaged(data: dict, r: int) -> dict:
    return dict(data, lines=[dict(l, in_service=False) if q == r else l for q, l in enumerate(data["lines"])])


def _emergency(ln: dict) -> float:
    value = ln.get("rate_emergency_mw")
    return float(ln["rate_mw"] if value is None else value)


def build(data: dict):
    """The LP (segment outputs above every unit's floor) and how its right-hand sides move with the load of each
    bus; None if no unit is in service."""
    m, lines, idx = ptdf(data)
    gens = [g for g in data["generators"] if _on(g.get("in_service"))]
    load = np.zeros(len(idx))
    for ld in data["loads"]:
        load[idx[str(ld["bus"])]] += float(ld["p_mw"])
    cols, c, bounds, owner = [], [], [], []
    floor_inj = -load.copy()
    for g, gen in enumerate(gens):
        pmin, pmax, cost = float(gen.get("pmin_mw", 0.0)), float(gen["pmax_mw"]), gen["cost"]
        floor_inj[idx[str(gen["bus"])]] += pmin
        if cost["type"] == "linear":
            segs = [(pmax - pmin, float(cost["c1"]))]
        else:
            pts = [(float(a), float(cc)) for a, cc in cost["points"]]
            segs = [((b1 - a1), (c1 - c0) / (b1 - a1)) for (a1, c0), (b1, c1) in zip(pts, pts[1:])]
        for width, slope in segs:
            owner.append(g); c.append(slope); bounds.append((0.0, width))
            col = np.zeros(len(idx)); col[idx[str(gen["bus"])]] = 1.0; cols.append(col)
    if not cols:
        return None
    cmat = np.array(cols).T
    comp = np.array(islands(data))
    a_eq, b_eq, d_eq, eq_label, dead = [], [], [], [], []
    for label in range(comp.max() + 1):
        row = cmat[comp == label].sum(axis=0)
        need = -floor_inj[comp == label].sum()
        if not row.any():
            dead.append(label)
            if abs(need) > 1e-9:
                return "infeasible"
            continue
        a_eq.append(row); b_eq.append(need); d_eq.append((comp == label).astype(float)); eq_label.append(label)
    mats, rates = [m], [np.array([float(ln["rate_mw"]) for ln in lines])]
    secured, islanding = _contingencies(data)
    for r in secured:
        mk, lk, _ = ptdf(_outaged(data, r))
        mats.append(mk); rates.append(np.array([_emergency(ln) for ln in lk]))
    mall = np.vstack(mats) if mats else np.zeros((0, len(idx)))
    rall = np.concatenate(rates) if rates else np.zeros(0)
    flow0 = mall @ floor_inj
    a = mall @ cmat
    lp = {
        "c": np.array(c), "A_ub": np.vstack([a, -a]), "b_ub": np.concatenate([rall - flow0, rall + flow0]),
        "d_ub": np.vstack([mall, -mall]), "A_eq": np.array(a_eq), "b_eq": np.array(b_eq), "d_eq": np.array(d_eq),
        "bounds": bounds, "owner": owner, "gens": gens, "m": m, "lines": lines, "idx": idx, "load": load,
        "comp": comp, "dead": dead, "islanding": islanding,
    }
    return lp


def _value(lp: dict, bus: int, delta: float) -> float | None:
    """Optimal segment cost with ``delta`` MW more load at ``bus`` (None if that is infeasible)."""
    b_ub = lp["b_ub"] + delta * lp["d_ub"][:, bus]
    b_eq = lp["b_eq"] + delta * lp["d_eq"][:, bus]
    res = linprog(lp["c"], A_ub=lp["A_ub"], b_ub=b_ub, A_eq=lp["A_eq"], b_eq=b_eq, bounds=lp["bounds"], method="highs")
    return float(res.fun) if res.status == 0 else None


LMP_STEP = 0.01


class LmpBounds:
    """Per bus, the slopes of the optimal cost over a small load decrease and increase (LMP_STEP MW): the marginal
    cost of load at that bus lies between them (the value of an LP is convex in its right-hand side). None for a
    bus whose island has no unit in service. Computed lazily, bus by bus."""

    def __init__(self, data: dict) -> None:
        self.lp = build(data)
        self.ids = [str(b["id"]) for b in data["buses"]]
        self.v0 = _value(self.lp, 0, 0.0)

    def __call__(self, bus: str) -> tuple[float, float] | None:
        k = self.ids.index(bus)
        if self.lp["comp"][k] in self.lp["dead"]:
            return None
        up, down = _value(self.lp, k, LMP_STEP), _value(self.lp, k, -LMP_STEP)
        hi = math.inf if up is None else (up - self.v0) / LMP_STEP
        lo = -math.inf if down is None else (self.v0 - down) / LMP_STEP
        return min(lo, hi), max(lo, hi)


def lmp_bounds(data: dict) -> dict[str, tuple[float, float] | None]:
    judge = LmpBounds(data)
    return {bus: judge(bus) for bus in judge.ids}


def post_contingency_flows(data: dict, inj: np.ndarray) -> list[tuple[list[dict], np.ndarray]]:
    """For every secured contingency: the in-service lines of the outaged network and their flows (MW)."""
    secured, _ = _contingencies(data)
    out = []
    for r in secured:
        mk, lk, _ = ptdf(_outaged(data, r))
        out.append((lk, mk @ inj))
    return out


def solve(data: dict) -> dict:
    infeasible = {"status": "infeasible"}
    lp = build(data)
    if lp is None or lp == "infeasible":
        return infeasible
    gens, idx, owner = lp["gens"], lp["idx"], lp["owner"]
    res = linprog(lp["c"], A_ub=lp["A_ub"], b_ub=lp["b_ub"], A_eq=lp["A_eq"], b_eq=lp["b_eq"], bounds=lp["bounds"],
                  method="highs")
    if res.status != 0:
        return infeasible
    disp = {str(g["id"]): 0.0 for g in data["generators"]}
    for g, gen in enumerate(gens):
        disp[str(gen["id"])] = float(gen.get("pmin_mw", 0.0))
    for v, g in enumerate(owner):
        disp[str(gens[g]["id"])] += float(res.x[v])
    inj = -lp["load"].copy()
    for gen in gens:
        inj[idx[str(gen["bus"])]] += disp[str(gen["id"])]
    flow = lp["m"] @ inj
    flows = {str(ln["id"]): 0.0 for ln in data["lines"]}
    for r, ln in enumerate(lp["lines"]):
        flows[str(ln["id"])] = float(flow[r])
    total = sum(cost_of(gen["cost"], disp[str(gen["id"])]) for gen in gens)
    # prices from the duals (d cost / d right-hand side) and how the right-hand sides move with each bus's load
    price = res.eqlin.marginals @ lp["d_eq"] + res.ineqlin.marginals @ lp["d_ub"]
    lmp = {str(b["id"]): (None if lp["comp"][k] in lp["dead"] else float(price[k])) for k, b in enumerate(data["buses"])}
    return {"status": "optimal", "total_cost": total, "dispatch_mw": disp, "flows_mw": flows, "lmp": lmp,
            "islanding_contingencies": lp["islanding"]}
