# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""gridopt: a small DC optimal power flow (economic dispatch with line limits) toolkit."""

from .network import Network, load_network
from .dcflow import build_bbus, ptdf_matrix, solve_angles, line_flows_mw
from .costs import cost_segments, evaluate_cost
from .optimizer import DispatchResult, optimise_dispatch

__all__ = [
    "Network", "load_network", "build_bbus", "ptdf_matrix", "solve_angles", "line_flows_mw",
    "cost_segments", "evaluate_cost", "DispatchResult", "optimise_dispatch",
]
