# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Generator cost curves ($/h as a function of output in MW).

``linear``: cost(p) = c0 + c1 * p.
``piecewise``: points (p_0, C_0), (p_1, C_1), ... with increasing p; the cost is the linear interpolation of
the points (convex curves: the slopes increase). p_0 is the lowest output the curve covers.
"""

from __future__ import annotations


def cost_segments(cost: dict) -> tuple[float, float, list[tuple[float, float]]]:
    """(p_start, cost at p_start, [(segment width MW, marginal cost $/MWh), ...]) of a cost curve."""
    if cost["type"] == "linear":
        return 0.0, cost["c0"], [(float("inf"), cost["c1"])]
    points = cost["points"]
    segments = []
    for (p_a, c_a), (p_b, c_b) in zip(points, points[1:]):
        width = p_b - p_a
        segments.append((width, c_b / width))
    return points[0][0], points[0][1], segments


def evaluate_cost(cost: dict, p_mw: float) -> float:
    start, base_cost, segments = cost_segments(cost)
    remaining = p_mw - start
    total = base_cost
    for width, slope in segments:
        used = min(max(remaining, 0.0), width)
        total += used * slope
        remaining -= used
    return total
