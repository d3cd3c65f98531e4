# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's reference: the generator's structured mechanism integrated by scipy's Radau at tight
tolerances, with an analytic Jacobian. Returns concentrations in the conditions' units at its times."""

from __future__ import annotations

import math

import numpy as np
from scipy.integrate import solve_ivp

from mechgen import CONC, R_GAS, TIME


def _system(case: dict):
    mech, cond = case["mechanism"], case["conditions"]
    species = mech["species"]
    idx = {s: i for i, s in enumerate(species)}
    T = cond["T"]
    ks, orders, stoich = [], [], []
    for r in case["exact"]:
        net = np.zeros(len(species))
        for s, nu in r["reactants"].items():
            net[idx[s]] -= nu
        for s, nu in r["products"].items():
            net[idx[s]] += nu
        for rate, side, sign in ((r["forward"], r["reactants"], 1.0), (r["reverse"], r["products"], -1.0)):
            if rate is None:
                continue
            ks.append(rate["A"] * T ** rate["b"] * math.exp(-rate["Ea"] / (R_GAS * T)))
            o = np.zeros(len(species))
            for s, nu in side.items():
                o[idx[s]] += nu
            orders.append(o)
            stoich.append(sign * net)
    k = np.array(ks)
    O = np.array(orders)
    S = np.array(stoich).T

    def f(t, c):
        return S @ (k * np.prod(c[None, :] ** O, axis=1))

    def jac(t, c):
        d = np.zeros_like(O)
        for j in range(len(species)):
            a = O[:, j] > 0
            if a.any():
                rest = c[None, :] ** O[a]
                rest[:, j] = 1.0
                d[a, j] = k[a] * O[a, j] * c[j] ** (O[a, j] - 1) * rest.prod(axis=1)
        return S @ d

    ccf, ctf = CONC[cond["units"]["concentration"]], TIME[cond["units"]["time"]]
    y0 = np.array([cond["initial"].get(s, 0.0) * ccf for s in species])
    times = np.array(cond["times"]) * ctf
    return f, jac, y0, times, ccf


def reference(case: dict) -> np.ndarray:
    f, jac, y0, times, ccf = _system(case)
    scale = max(1e-30, float(y0.sum()))
    sol = solve_ivp(f, (0.0, float(times[-1])), y0, method="Radau", t_eval=times, rtol=1e-9,
                    atol=1e-14 * scale, jac=jac)
    if not sol.success:
        raise RuntimeError(f"reference failed: {sol.message}")
    states = sol.y.T / ccf
    if times[0] == 0.0:
        states[0] = y0 / ccf
    return states


def radau_nfev(case: dict) -> int:
    """RHS evaluations scipy's Radau needs at the case's own rtol/atol (the efficiency yardstick)."""
    mech, cond = case["mechanism"], case["conditions"]
    f, jac, y0, times, ccf = _system(case)
    sol = solve_ivp(f, (0.0, float(times[-1])), y0, method="Radau", rtol=cond["rtol"],
                    atol=cond["atol"] * ccf, jac=jac)
    return int(sol.nfev)
