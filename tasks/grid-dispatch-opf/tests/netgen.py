# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded generator of hidden test networks, one family per kind of difficulty."""

from __future__ import annotations

import random

from reference import islands, ptdf, solve

FAMILIES = ["radial", "meshed", "congested", "piecewise", "contingency", "islanded", "infeasible"]
SECURE_FAMILIES = ["secure", "secure_spur", "secure_list", "secure_islanded", "secure_infeasible"]


def _tree(rng: random.Random, n: int) -> list[tuple[int, int]]:
    return [(rng.randrange(k), k) for k in range(1, n)]


def _connected(n: int, edges) -> bool:
    seen, stack = {0}, [0]
    adj = {k: [] for k in range(n)}
    for a, b in edges:
        adj[a].append(b); adj[b].append(a)
    while stack:
        for nb in adj[stack.pop()]:
            if nb not in seen:
                seen.add(nb); stack.append(nb)
    return len(seen) == n


def _split(rng: random.Random, net: dict, size: int) -> list[str] | None:
    """Take out every line between a connected group of ``size`` buses and the rest; None if the rest falls
    apart or the group does not fit."""
    ids = [b["id"] for b in net["buses"]]
    live = [ln for ln in net["lines"] if ln.get("in_service", True)]
    adj = {b: [] for b in ids}
    for ln in live:
        adj[ln["from"]].append(ln["to"]); adj[ln["to"]].append(ln["from"])
    group = [ids[rng.randrange(len(ids))]]
    while len(group) < size:
        border = sorted({nb for b in group for nb in adj[b]} - set(group))
        if not border:
            return None
        group.append(border[rng.randrange(len(border))])
    inside = set(group)
    for ln in live:
        if (ln["from"] in inside) != (ln["to"] in inside):
            ln["in_service"] = False
    comp = islands(net)
    if len(set(comp)) != 2:
        return None
    return group


def _island_units(rng: random.Random, net: dict, group: list[str]) -> None:
    """Give a group of buses enough live generation of its own to serve its load."""
    inside = set(group)
    load = sum(ld["p_mw"] for ld in net["loads"] if ld["bus"] in inside)
    cap = sum(g["pmax_mw"] for g in net["generators"] if g["bus"] in inside and g.get("in_service", True))
    if cap < 1.2 * load or rng.random() < 0.5:
        pmax = round(max(1.5 * load - cap, 0.3 * load, 20.0), 1)
        net["generators"].append({
            "id": f"G{len(net['generators']) + 1}", "bus": group[rng.randrange(len(group))], "pmin_mw": 0.0,
            "pmax_mw": pmax, "cost": _cost(rng, 0.0, pmax, rng.random() < 0.4),
        })


def _cost(rng: random.Random, pmin: float, pmax: float, piecewise: bool) -> dict:
    if not piecewise:
        return {"type": "linear", "c0": round(rng.uniform(0, 300), 2), "c1": round(rng.uniform(8, 60), 3)}
    k = rng.randint(2, 4)
    cuts = sorted(rng.sample(range(1, 20), k - 1))
    ps = [pmin] + [round(pmin + (pmax - pmin) * c / 20, 1) for c in cuts] + [pmax]
    slope = rng.uniform(8, 30)
    c = round(rng.uniform(50, 400), 2)
    pts = [[ps[0], c]]
    for a, b in zip(ps, ps[1:]):
        c = round(c + slope * (b - a), 3)
        pts.append([b, c])
        slope += rng.uniform(2, 15)
    return {"type": "piecewise", "points": pts}


def _base(rng: random.Random, family: str) -> dict:
    n = rng.randint(4, 7) if family == "radial" else rng.randint(10, 20)
    edges = _tree(rng, n)
    if family != "radial":
        pairs = {tuple(sorted(e)) for e in edges}
        while len(pairs) < n - 1 + rng.randint(n // 3, n // 2 + 2):
            a, b = rng.sample(range(n), 2)
            pairs.add(tuple(sorted((a, b))))
        edges = sorted(pairs)
        rng.shuffle(edges)
    slack = rng.randrange(n)
    names = [f"B{k + 1}" if k % 3 else f"bus_{k + 1}" for k in range(n)]
    buses = [{"id": names[k], "type": "slack" if k == slack else "pq"} for k in range(n)]
    lines = [
        {"id": f"L{r + 1}", "from": names[a], "to": names[b], "x": round(rng.uniform(0.04, 0.4), 4), "rate_mw": 9999.0}
        for r, (a, b) in enumerate(edges)
    ]
    loads = []
    for k in rng.sample(range(n), max(2, n * 2 // 3)):
        loads.append({"bus": names[k], "p_mw": round(rng.uniform(10, 120), 1)})
    total = sum(ld["p_mw"] for ld in loads)
    gens = []
    n_gen = max(3, n // 3 + 1)
    cap = 0.0
    piecewise = family == "piecewise"
    for g in range(n_gen):
        pmax = round(rng.uniform(0.3, 0.8) * total, 1)
        pmin = round(pmax * rng.choice([0, 0, 0.1, 0.2]), 1)
        use_pw = piecewise and g % 3 != 2 or (family in ("congested", "contingency") and rng.random() < 0.15)
        gens.append({
            "id": f"G{g + 1}", "bus": names[rng.randrange(n)], "pmin_mw": pmin, "pmax_mw": pmax,
            "cost": _cost(rng, pmin, pmax, use_pw),
        })
        cap += pmax
    # one or two out-of-service units, cheap ones, so ignoring the flag changes the answer
    for g in rng.sample(range(n_gen), 0 if family in ("radial", "meshed") else 1 if n_gen < 5 else 2):
        gens[g]["in_service"] = False
        gens[g]["cost"] = {"type": "linear", "c0": 0.0, "c1": round(rng.uniform(1, 5), 3)}
    live = sum(g["pmax_mw"] for g in gens if g.get("in_service", True))
    if live < 1.15 * total:
        gens.append({
            "id": f"G{n_gen + 1}", "bus": names[slack], "pmin_mw": 0.0, "pmax_mw": round(1.2 * total, 1),
            "cost": {"type": "linear", "c0": 0.0, "c1": round(rng.uniform(70, 90), 3)},
        })
    return {"name": f"{family}", "base_mva": 100.0, "buses": buses, "lines": lines, "generators": gens, "loads": loads}


def _tighten(rng: random.Random, net: dict, share: float) -> dict[str, float]:
    """Set line ratings around the unconstrained flows, some tight enough to bind; returns those flows."""
    for ln in net["lines"]:
        ln["rate_mw"] = 9999.0
    sol = solve(net)
    flows = {}
    for ln in net["lines"]:
        f = flows[ln["id"]] = abs(sol["flows_mw"][ln["id"]]) if sol["status"] == "optimal" else 50.0
        if rng.random() < share:
            ln["rate_mw"] = round(max(5.0, f * rng.uniform(0.55, 0.9)), 1)
        else:
            ln["rate_mw"] = round(max(20.0, f * rng.uniform(1.3, 2.5)), 1)
    return flows


def _spur(rng: random.Random, net: dict) -> None:
    """Hang a new bus with a load (sometimes a unit too) off the grid by one line: its outage islands the bus."""
    k = len(net["buses"]) + 1
    bus = f"S{k}"
    net["buses"].append({"id": bus, "type": "pq"})
    other = net["buses"][rng.randrange(k - 1)]["id"]
    net["lines"].append({"id": f"L{len(net['lines']) + 1}", "from": other, "to": bus,
                         "x": round(rng.uniform(0.04, 0.4), 4), "rate_mw": 9999.0})
    net["loads"].append({"bus": bus, "p_mw": round(rng.uniform(5, 40), 1)})
    if rng.random() < 0.5:
        pmax = round(rng.uniform(20, 60), 1)
        net["generators"].append({"id": f"G{len(net['generators']) + 1}", "bus": bus, "pmin_mw": 0.0,
                                  "pmax_mw": pmax, "cost": _cost(rng, 0.0, pmax, rng.random() < 0.3)})


def _secure(rng: random.Random, family: str) -> dict | None:
    """A network whose N-1 security constraints raise the cost (or, for secure_infeasible, cannot be met)."""
    net = _base(rng, "congested")
    if family == "secure_spur":
        for _ in range(rng.randint(1, 2)):
            _spur(rng, net)
    if family == "secure_islanded":
        group = _split(rng, net, rng.randint(2, max(2, len(net["buses"]) // 3)))
        if group is None:
            return None
        _island_units(rng, net, group)
        _island_units(rng, net, [b["id"] for b in net["buses"] if b["id"] not in group])
    if family == "secure_list":
        live = [r for r, ln in enumerate(net["lines"])]
        r = live[rng.randrange(len(live))]
        rest = [ln for q, ln in enumerate(net["lines"]) if q != r]
        ids = [b["id"] for b in net["buses"]]
        if _connected(len(ids), [(ids.index(l["from"]), ids.index(l["to"])) for l in rest]):
            net["lines"][r]["in_service"] = False
    _tighten(rng, net, 0.2)
    if family == "secure_list":
        chosen = [ln["id"] for ln in net["lines"] if rng.random() < 0.6]
        out = [ln["id"] for ln in net["lines"] if not ln.get("in_service", True)]
        net["contingencies"] = sorted(set(chosen + out), key=lambda i: int(i[1:]))
        for ln in net["lines"]:
            if rng.random() < 0.7:
                ln["rate_emergency_mw"] = round(ln["rate_mw"] * rng.uniform(1.1, 1.5), 1)
    else:
        net["contingencies"] = "all"
    base = dict(net, contingencies=None)
    plain = solve(base)
    if plain["status"] != "optimal":
        return None
    for _ in range(12):
        sol = solve(net)
        if family == "secure_infeasible":
            if sol["status"] == "infeasible":
                return net
            scale = 0.85
        elif sol["status"] == "optimal":
            if sol["total_cost"] > plain["total_cost"] * (1 + 1e-3) + 1.0:
                return net
            scale = 0.9
        else:
            scale = 1.15
        for ln in net["lines"]:
            ln["rate_mw"] = round(ln["rate_mw"] * scale, 1)
            if "rate_emergency_mw" in ln:
                ln["rate_emergency_mw"] = round(ln["rate_emergency_mw"] * scale, 1)
        if solve(base)["status"] != "optimal":
            return None
    return None


def make_network(rng: random.Random, family: str) -> dict:
    if family in SECURE_FAMILIES:
        for _ in range(200):
            net = _secure(rng, family)
            if net is not None:
                net["name"] = family
                return net
        raise RuntimeError(f"could not build a {family} network")
    for _ in range(200):
        net = _base(rng, family)
        if family == "contingency":
            n = len(net["buses"])
            ids = [b["id"] for b in net["buses"]]
            order = list(range(len(net["lines"])))
            rng.shuffle(order)
            for r in order:
                rest = [(ids.index(l["from"]), ids.index(l["to"])) for q, l in enumerate(net["lines"]) if q != r]
                if _connected(n, rest):
                    net["lines"][r]["in_service"] = False
                    break
        if family == "islanded":
            group = _split(rng, net, rng.randint(1, max(2, len(net["buses"]) // 3)))
            if group is None:
                continue
            if len(group) > 1 or any(ld["bus"] == group[0] for ld in net["loads"]):
                _island_units(rng, net, group)
            rest = [b["id"] for b in net["buses"] if b["id"] not in group]
            _island_units(rng, net, rest)
        share = {"radial": 0.3, "meshed": 0.25, "congested": 0.35, "piecewise": 0.25, "contingency": 0.25, "islanded": 0.25}.get(family, 0.3)
        if family != "infeasible":
            for _ in range(10):  # at least one rating must bind
                flows = _tighten(rng, net, share)
                binding = any(ln["rate_mw"] < flows[ln["id"]] - 1.0 for ln in net["lines"] if ln.get("in_service", True))
                if binding and solve(net)["status"] == "optimal":
                    return net
            continue
        _tighten(rng, net, share)
        kind = rng.randrange(4)
        loads = net["loads"]
        if kind == 0:  # load exceeds in-service capacity (but not if out-of-service units are counted)
            live = sum(g["pmax_mw"] for g in net["generators"] if g.get("in_service", True))
            extra = live - sum(ld["p_mw"] for ld in loads) + rng.uniform(5, 30)
            loads[0]["p_mw"] = round(loads[0]["p_mw"] + extra, 1)
            dead = [g for g in net["generators"] if not g.get("in_service", True)]
            dead[0]["pmax_mw"] = round(extra + 200.0, 1)
        elif kind == 1:  # minimum outputs exceed the load
            g = max(net["generators"], key=lambda g: g["pmax_mw"] if g.get("in_service", True) else -1)
            g["pmin_mw"] = round(min(g["pmax_mw"], sum(ld["p_mw"] for ld in loads) + rng.uniform(5, 20)), 1)
            g["pmax_mw"] = max(g["pmax_mw"], g["pmin_mw"])
            g["cost"] = {"type": "linear", "c0": 10.0, "c1": 30.0}
        elif kind == 2:  # congestion: every line far too weak in both directions
            for ln in net["lines"]:
                ln["rate_mw"] = round(ln["rate_mw"] * 0.15, 1)
        else:  # an outage cuts off loads that no unit of their own island can serve
            group = _split(rng, net, rng.randint(1, 3))
            if group is None:
                continue
            for g in net["generators"]:
                if g["bus"] in group:
                    g["in_service"] = False
            if not any(ld["bus"] in group for ld in loads):
                loads.append({"bus": group[0], "p_mw": round(rng.uniform(10, 60), 1)})
        if solve(net)["status"] == "infeasible":
            return net
    raise RuntimeError(f"could not build a {family} network")
