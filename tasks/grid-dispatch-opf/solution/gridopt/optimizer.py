# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""DC optimal power flow as a linear programme (scipy.optimize.linprog, HiGHS).

Variables: one output per generator segment, in per unit on the system base. Constraints: power balance
(total generation = total load), generator limits, and line flow limits |PTDF . injections| <= rating.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
from scipy.optimize import linprog

from .costs import cost_segments, evaluate_cost
from .dcflow import islands, line_flows_mw, net_injections_mw, ptdf_matrix
from .network import Network


@dataclass
class DispatchResult:
    status: str
    total_cost: float | None = None
    dispatch_mw: dict[str, float] = field(default_factory=dict)
    flows_mw: dict[str, float] = field(default_factory=dict)
    lmp: dict[str, float | None] = field(default_factory=dict)
    islanding_contingencies: list[str] = field(default_factory=list)
    message: str = ""


def _variables(net: Network) -> list[tuple[int, float, float]]:
    """(generator index, width MW, marginal cost $/MWh) per LP variable, above each generator's floor."""
    variables = []
    for g, gen in enumerate(net.generators):
        _, _, segments = cost_segments(gen.cost)
        if gen.cost["type"] == "linear":
            variables.append((g, gen.pmax_mw - gen.pmin_mw, segments[0][1]))
            continue
        for width, slope in segments:
            variables.append((g, width, slope))
    return variables


def _floor_mw(gen) -> float:
    """Lowest output: Pmin (a piecewise curve starts at Pmin and ends at Pmax)."""
    return gen.pmin_mw


def optimise_dispatch(net: Network) -> DispatchResult:
    base = net.base_mva
    gens = net.generators
    variables = _variables(net)
    n_var = len(variables)
    floors = np.array([_floor_mw(gen) for gen in gens])
    index = net.bus_index()
    c = np.array([slope for _, _, slope in variables]) * base
    bounds = [(0.0, width / base) for _, width, _ in variables]

    # power balance of every island: its segment outputs = its load - its units' floors (per unit)
    label = islands(net)
    n_islands = max(label) + 1 if label else 0
    a_eq = np.zeros((n_islands, n_var))
    for v, (g, _, _) in enumerate(variables):
        a_eq[label[index[gens[g].bus]], v] = 1.0
    need = np.zeros(n_islands)
    for load in net.loads:
        need[label[index[load.bus]]] += load.p_mw
    for g, gen in enumerate(gens):
        need[label[index[gen.bus]]] -= floors[g]
    empty = ~a_eq.any(axis=1)
    if np.any(np.abs(need[empty]) > 1e-9):
        return DispatchResult("infeasible", message="an island has load but no unit, or units but no load")
    a_eq, b_eq = a_eq[~empty], need[~empty] / base

    # line limits: flow = PTDF @ injections, injections = gen (floor + segments) - load
    ptdf = ptdf_matrix(net)
    fixed_inj = np.zeros(len(net.buses))
    for g, gen in enumerate(gens):
        fixed_inj[index[gen.bus]] += floors[g] / base
    for load in net.loads:
        fixed_inj[index[load.bus]] -= load.p_mw / base
    column_bus = np.zeros((len(net.buses), n_var))
    for v, (g, _, _) in enumerate(variables):
        column_bus[index[gens[g].bus], v] = 1.0
    a_ub = ptdf @ column_bus if len(net.lines) else np.zeros((0, n_var))
    base_flow = ptdf @ fixed_inj if len(net.lines) else np.zeros(0)
    rates = np.array([line.rate_mw for line in net.lines]) / base

    # N-1 security: the same dispatch must keep every line within its emergency rating after each secured outage
    secured, islanding = security_cases(net)
    sens = [ptdf]
    for outaged in secured:
        ptdf_k = ptdf_matrix(outaged)
        sens.append(ptdf_k)
        a_ub = np.vstack([a_ub, ptdf_k @ column_bus])
        base_flow = np.concatenate([base_flow, ptdf_k @ fixed_inj])
        rates = np.concatenate([rates, np.array([line.emergency_mw for line in outaged.lines]) / base])
    sens = np.vstack(sens) if len(rates) else np.zeros((0, len(net.buses)))
    b_ub = np.concatenate([rates - base_flow, rates + base_flow])
    a_ub = np.vstack([a_ub, -a_ub])

    if floors.sum() > net.total_load_mw + 1e-9:
        return DispatchResult("infeasible", message="minimum outputs exceed the load")
    result = linprog(
        c, A_ub=a_ub if len(rates) else None, b_ub=b_ub if len(rates) else None,
        A_eq=a_eq, b_eq=b_eq, bounds=bounds, method="highs",
    )
    if result.status == 2:
        return DispatchResult("infeasible", message=result.message)
    if result.status != 0:
        raise RuntimeError(f"linprog failed: {result.message}")

    dispatch = {gen.id: float(floors[g]) for g, gen in enumerate(gens)}
    for v, (g, _, _) in enumerate(variables):
        dispatch[gens[g].id] += float(result.x[v]) * base
    total = sum(evaluate_cost(gen.cost, dispatch[gen.id]) for gen in gens)
    flows = line_flows_mw(net, net_injections_mw(net, dispatch))

    # locational marginal prices: d(total cost)/d(load at the bus), from the duals of the balance and flow rows
    eq_dual = np.zeros(n_islands)
    eq_dual[~empty] = result.eqlin.marginals
    ub_dual = result.ineqlin.marginals if len(rates) else np.zeros(0)
    half = len(rates)
    flow_dual = ub_dual[:half] - ub_dual[half:] if half else np.zeros(0)
    lmp = {}
    for k, bus in enumerate(net.buses):
        if empty[label[k]]:
            lmp[bus.id] = None
            continue
        value = eq_dual[label[k]] + (flow_dual @ sens[:, k] if half else 0.0)
        lmp[bus.id] = float(value) / base
    return DispatchResult("optimal", total_cost=total, dispatch_mw=dispatch, flows_mw=flows, lmp=lmp,
                          islanding_contingencies=islanding)


def security_cases(net: Network) -> tuple[list[Network], list[str]]:
    """The outaged networks of the secured contingencies, and the sorted ids of the listed in-service lines whose
    outage would split an island (those are not secured)."""
    wanted = set(net.contingencies)
    n_islands = len(set(islands(net)))
    secured, islanding = [], []
    for line in net.lines:
        if line.id not in wanted:
            continue
        outaged = replace(net, lines=[other for other in net.lines if other is not line])
        if len(set(islands(outaged))) > n_islands:
            islanding.append(line.id)
        else:
            secured.append(outaged)
    return secured, sorted(islanding)
