# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""DC power flow: nodal susceptance matrix, bus angles, line flows and PTDFs.

The DC approximation: the flow on line l = (i, j) is ``b_l * (theta_i - theta_j)`` in per unit, with the line
susceptance ``b_l = 1 / x_l``. The bus angles solve ``B' theta = P`` where ``B'`` is the nodal susceptance matrix
with the slack bus row and column removed (theta_slack = 0) and ``P`` the net injections in per unit. When line
outages split the network into islands, every island without the slack bus has its own angle reference (its
first bus) and must balance on its own.
"""

from __future__ import annotations

import numpy as np

from .network import Network


def line_susceptance(x: float) -> float:
    return 1.0 / x


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


def islands(net: Network) -> list[int]:
    """The island (connected component over the in-service lines) of every bus, numbered from 0."""
    index = net.bus_index()
    neighbours: list[list[int]] = [[] for _ in net.buses]
    for line in net.lines:
        i, j = index[line.from_bus], index[line.to_bus]
        neighbours[i].append(j)
        neighbours[j].append(i)
    label = [-1] * len(net.buses)
    count = 0
    for start in range(len(net.buses)):
        if label[start] >= 0:
            continue
        label[start], stack = count, [start]
        while stack:
            for other in neighbours[stack.pop()]:
                if label[other] < 0:
                    label[other] = count
                    stack.append(other)
        count += 1
    return label


def reference_buses(net: Network) -> list[int]:
    """One angle reference per island: the slack bus in its island, the first bus of every other island."""
    label = islands(net)
    refs = {label[net.slack_index]: net.slack_index}
    for k, island in enumerate(label):
        refs.setdefault(island, k)
    return sorted(refs.values())


def _reduced(net: Network) -> tuple[np.ndarray, list[int]]:
    refs = set(reference_buses(net))
    keep = [k for k in range(len(net.buses)) if k not in refs]
    bbus = build_bbus(net)
    return bbus[np.ix_(keep, keep)], keep


def solve_angles(net: Network, injections_mw: np.ndarray) -> np.ndarray:
    """Bus voltage angles (radians) for net injections in MW (they must sum to zero)."""
    injections_pu = np.asarray(injections_mw, dtype=float) / net.base_mva
    reduced, keep = _reduced(net)
    theta = np.zeros(len(net.buses))
    theta[keep] = np.linalg.solve(reduced, injections_pu[keep])
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

    Column k holds the flow on each line (MW) for 1 MW injected at bus k and withdrawn at the reference bus of
    its island (the slack bus in the slack's island).
    """
    n = len(net.buses)
    label = islands(net)
    ref_of = {label[k]: k for k in reference_buses(net)}
    columns = []
    for k in range(n):
        injection = np.zeros(n)
        ref = ref_of[label[k]]
        if k != ref:
            injection[k] += 1.0
            injection[ref] -= 1.0
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
