# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own DC-OPF reference (independent of /app): PTDF formulation solved with HiGHS."""

from __future__ import annotations

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


def solve(data: dict) -> dict:
    m, lines, idx = ptdf(data)
    gens = [g for g in data["generators"] if _on(g.get("in_service"))]
    load = np.zeros(len(idx))
    for ld in data["loads"]:
        load[idx[str(ld["bus"])]] += float(ld["p_mw"])
    cols, c, bounds, owner = [], [], [], []
    const = 0.0
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
    infeasible = {"status": "infeasible"}
    if not cols:
        return infeasible
    cmat = np.array(cols).T
    # one power balance per island
    comp = np.array(islands(data))
    a_eq, b_eq = [], []
    for label in range(comp.max() + 1):
        row = cmat[comp == label].sum(axis=0)
        need = -floor_inj[comp == label].sum()
        if not row.any():
            if abs(need) > 1e-9:
                return infeasible
            continue
        a_eq.append(row); b_eq.append(need)
    rates = np.array([float(ln["rate_mw"]) for ln in lines])
    flow0 = m @ floor_inj
    a = m @ cmat
    a_ub = np.vstack([a, -a]) if len(lines) else None
    b_ub = np.concatenate([rates - flow0, rates + flow0]) if len(lines) else None
    res = linprog(np.array(c), A_ub=a_ub, b_ub=b_ub, A_eq=np.array(a_eq), b_eq=b_eq, bounds=bounds, method="highs")
    if res.status != 0:
        return infeasible
    disp = {str(g["id"]): 0.0 for g in data["generators"]}
    for g, gen in enumerate(gens):
        disp[str(gen["id"])] = float(gen.get("pmin_mw", 0.0))
    for v, g in enumerate(owner):
        disp[str(gens[g]["id"])] += float(res.x[v])
    inj = -load.copy()
    for gen in gens:
        inj[idx[str(gen["bus"])]] += disp[str(gen["id"])]
    flow = m @ inj
    flows = {str(ln["id"]): 0.0 for ln in data["lines"]}
    for r, ln in enumerate(lines):
        flows[str(ln["id"])] = float(flow[r])
    total = sum(cost_of(gen["cost"], disp[str(gen["id"])]) for gen in gens)
    return {"status": "optimal", "total_cost": total, "dispatch_mw": disp, "flows_mw": flows}
