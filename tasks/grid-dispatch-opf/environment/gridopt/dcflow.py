# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""DC power flow: nodal susceptance matrix, bus angles, line flows and PTDFs.

The DC approximation: the flow on line l = (i, j) is ``b_l * (theta_i - theta_j)`` in per unit, with the line
susceptance ``b_l = 1 / x_l``. The bus angles solve ``B' theta = P`` where ``B'`` is the nodal susceptance matrix
with the slack bus row and column removed (theta_slack = 0) and ``P`` the net injections in per unit.
"""

from __future__ import annotations

import numpy as np

from .network import Network


def line_susceptance(x: float) -> float:
    return x


def build_bbus(net: Network) -> np.ndarray:
    """The full n x n nodal susceptance matrix (per unit) of the in-service lines."""
    index = net.bus_index()
    n = len(net.buses)
    bbus = np.zeros((n, n))
    for line in net.lines:
        i, j = index[line.from_bus], index[line.to_bus]
        b = line_susceptance(line.x)
        bbus[i, i] += b
        bbus[j, j] += b
        bbus[i, j] -= b
        bbus[j, i] -= b
    return bbus


def _reduced(net: Network) -> tuple[np.ndarray, list[int]]:
    slack = net.slack_index
    keep = [k for k in range(len(net.buses)) if k != slack]
    bbus = build_bbus(net)
    return bbus[np.ix_(keep, keep)], keep


def solve_angles(net: Network, injections_mw: np.ndarray) -> np.ndarray:
    """Bus voltage angles (radians) for net injections in MW (they must sum to zero)."""
    injections_pu = np.asarray(injections_mw, dtype=float) / net.base_mva
    reduced, keep = _reduced(net)
    theta = np.zeros(len(net.buses))
    theta[keep] = np.linalg.solve(reduced, injections_pu[: len(keep)])
    return theta


def line_flows_mw(net: Network, injections_mw: np.ndarray) -> dict[str, float]:
    """Flow (MW, positive from ``from`` to ``to``) on every in-service line."""
    index = net.bus_index()
    theta = solve_angles(net, injections_mw)
    flows = {}
    for line in net.lines:
        flow_pu = line_susceptance(line.x) * (theta[index[line.from_bus]] - theta[index[line.to_bus]])
        flows[line.id] = float(flow_pu * net.base_mva)
    return flows


def ptdf_matrix(net: Network) -> np.ndarray:
    """Power transfer distribution factors: rows are in-service lines, columns buses.

    Column k holds the flow on each line (MW) for 1 MW injected at bus k and withdrawn at the slack bus.
    """
    n = len(net.buses)
    slack = net.slack_index
    columns = []
    for k in range(n):
        injection = np.zeros(n)
        if k != slack:
            injection[k] += 1.0
            injection[slack] -= 1.0
        flows = line_flows_mw(net, injection)
        columns.append([flows[line.id] for line in net.lines])
    return np.array(columns).T if columns else np.zeros((len(net.lines), 0))


def net_injections_mw(net: Network, dispatch_mw: dict[str, float]) -> np.ndarray:
    index = net.bus_index()
    injections = np.zeros(len(net.buses))
    for gen in net.generators:
        injections[index[gen.bus]] += dispatch_mw.get(gen.id, 0.0)
    for load in net.loads:
        injections[index[load.bus]] -= load.p_mw
    return injections
