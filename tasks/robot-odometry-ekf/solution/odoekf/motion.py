# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Motion model of the differential-drive base over one encoder interval.

Distance comes from the wheels, ds = (dL + dR) / 2. The heading change comes from the gyro when it sent samples
during the interval, dth = (mean rate - bias) * dt, and from the wheels otherwise, dth = (dR - dL) / base.
The pose moves along the interval's mid-heading:

    x' = x + ds cos(th + dth/2),  y' = y + ds sin(th + dth/2),  th' = th + dth,  b' = b
"""

from __future__ import annotations

import math

import numpy as np

from .config import RobotConfig
from .encoders import WheelStep


def propagate(s: np.ndarray, step: WheelStep, rates: list[float], dt: float, cfg: RobotConfig):
    """(new state, F = d(new state)/d(state), G = d(new state)/d(ds, dth), M = cov(ds, dth))."""
    x, y, th, bias = (float(v) for v in s)
    ds = step.distance
    var_l = cfg.sigma_wheel ** 2 * abs(step.left)
    var_r = cfg.sigma_wheel ** 2 * abs(step.right)
    if rates:
        n = len(rates)
        mean_rate = sum(rates) / n
        dth = (mean_rate - bias) * dt
        dth_dbias = -dt
        M = np.array([[0.25 * (var_l + var_r), 0.0],
                      [0.0, cfg.sigma_gyro ** 2 * dt * dt / n]])
    else:  # gyro silent: heading change from the wheels
        base = cfg.wheel_base
        dth = (step.right - step.left) / base
        dth_dbias = 0.0
        cross = 0.5 * (var_r - var_l) / base
        M = np.array([[0.25 * (var_l + var_r), cross],
                      [cross, (var_l + var_r) / (base * base)]])
    mid = th + 0.5 * dth
    c, s_ = math.cos(mid), math.sin(mid)
    new = np.array([x + ds * c, y + ds * s_, th + dth, bias])
    F = np.array([[1.0, 0.0, -ds * s_, -0.5 * ds * s_ * dth_dbias],
                  [0.0, 1.0, ds * c, 0.5 * ds * c * dth_dbias],
                  [0.0, 0.0, 1.0, dth_dbias],
                  [0.0, 0.0, 0.0, 1.0]])
    G = np.array([[c, -0.5 * ds * s_],
                  [s_, 0.5 * ds * c],
                  [0.0, 1.0],
                  [0.0, 0.0]])
    return new, F, G, M
