# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A stiff integrator: two-stage, L-stable, stiffly accurate SDIRK of order 2 with an embedded order-1
estimate, a simplified Newton iteration per stage, and step-size control.

    Y1 = y + h*g*f(Y1)
    Y2 = y + h*(1-g)*f(Y1) + h*g*f(Y2)        y_new = Y2,  g = 1 - 1/sqrt(2)

The error estimate y_new - (y + h*f(Y1)) is filtered through (I - h*g*J)^-1 so it stays bounded for stiff
components. Steps land exactly on every output time (no interpolation).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

GAMMA = 1.0 - 1.0 / math.sqrt(2.0)
SAFETY = 0.9
MIN_FACTOR = 0.2
MAX_FACTOR = 5.0
NEWTON_MAX_ITER = 7
NEWTON_TOL = 0.03


class SolverError(RuntimeError):
    pass


@dataclass
class Stats:
    nfev: int = 0
    njev: int = 0
    nsteps: int = 0
    nrejected: int = 0
    nlu: int = 0


@dataclass
class Result:
    times: np.ndarray
    states: np.ndarray  # (len(times), n)
    stats: Stats = field(default_factory=Stats)


def _norm(v: np.ndarray, scale: np.ndarray) -> float:
    return float(np.sqrt(np.mean((v / scale) ** 2)))


def _newton_stage(f, t, base, h, J_lu, guess, scale):
    """Solve Y = base + h*g*f(t, Y) by simplified Newton with the factorised iteration matrix."""
    lu, piv = J_lu
    Y = guess.copy()
    prev = None
    for _ in range(NEWTON_MAX_ITER):
        residual = Y - base - h * GAMMA * f(t, Y)
        delta = _lu_solve(lu, piv, -residual)
        Y = Y + delta
        size = _norm(delta, scale)
        if size <= NEWTON_TOL:
            return Y, True
        if prev is not None and size > prev:  # diverging
            return Y, False
        prev = size
    return Y, False


def _lu_factor(M: np.ndarray):
    import scipy.linalg

    return scipy.linalg.lu_factor(M)


def _lu_solve(lu, piv, b):
    import scipy.linalg

    return scipy.linalg.lu_solve((lu, piv), b)


def integrate(model, y0, t_out, rtol=1e-6, atol=1e-12, h0=None, max_steps=200000) -> Result:
    """Integrate from t_out[0] and return the state at every time of t_out (increasing)."""
    t_out = np.asarray(t_out, dtype=float)
    if np.any(np.diff(t_out) < 0):
        raise SolverError("output times must be increasing")
    y = np.array(y0, dtype=float)
    n = len(y)
    stats = Stats()
    f = model.rhs
    out = np.zeros((len(t_out), n))
    out[0] = y
    t = float(t_out[0])
    span = float(t_out[-1] - t_out[0])
    if span <= 0:
        return Result(t_out, out, stats)
    f0 = f(t, y)
    if h0 is None:
        scale0 = atol + rtol * np.abs(y)
        d0, d1 = _norm(y, scale0), _norm(f0, scale0)
        h0 = 1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
        h0 = min(h0, span)
    h = h0
    I = np.eye(n)
    k_out = 1
    while k_out < len(t_out):
        target = float(t_out[k_out])
        if stats.nsteps + stats.nrejected > max_steps:
            raise SolverError("too many steps")
        last = False
        if t + h >= target - 1e-12 * max(1.0, abs(target)):
            h = target - t
            last = True
        J = model.jacobian(t, y)
        lu = _lu_factor(I - h * GAMMA * J)
        stats.nlu += 1
        scale = atol + rtol * np.abs(y)
        Y1, ok1 = _newton_stage(f, t + GAMMA * h, y, h, lu, y, scale)
        ok2 = False
        if ok1:
            F1 = (Y1 - y) / (h * GAMMA)
            base2 = y + h * (1.0 - GAMMA) * F1
            Y2, ok2 = _newton_stage(f, t + h, base2, h, lu, Y1, scale)
        if not (ok1 and ok2):
            stats.nrejected += 1
            h *= 0.25
            continue
        y_new = Y2
        err_vec = _lu_solve(lu[0], lu[1], y_new - (y + h * F1))
        scale = atol + rtol * np.maximum(np.abs(y), np.abs(y_new))
        err = _norm(err_vec, scale)
        if err > 1.0:
            stats.nrejected += 1
            h_new = h * max(MIN_FACTOR, SAFETY * err ** -0.5)
        t = target if last else t + h
        y = y_new
        stats.nsteps += 1
        factor = MAX_FACTOR if err == 0 else min(MAX_FACTOR, max(MIN_FACTOR, SAFETY * err ** -0.5))
        h_next = h * factor
        if last:
            out[k_out] = y
            k_out += 1
            # keep the step size the controller wanted before it was clipped to the output time
            h_next = max(h_next, h)
        h = h_next if err <= 1.0 else h_new
    stats.nfev = model.nfev
    stats.njev = model.njev
    return Result(t_out, out, stats)
