# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The filter state: s = (x, y, heading, gyro bias) with its covariance P.

Predictions take the propagated state, its Jacobian F, the input Jacobian G and the input covariance M;
corrections use the Joseph form so P stays symmetric and positive definite over long runs.
"""

from __future__ import annotations

import numpy as np

from .angles import wrap

X, Y, TH, BIAS = range(4)


class PoseFilter:
    def __init__(self, pose: tuple[float, float, float], sigma: tuple[float, float, float],
                 sigma_bias0: float) -> None:
        self.s = np.array([pose[0], pose[1], wrap(pose[2]), 0.0])
        self.P = np.diag([sigma[0] ** 2, sigma[1] ** 2, sigma[2] ** 2, sigma_bias0 ** 2])

    @property
    def pose(self) -> tuple[float, float, float]:
        return float(self.s[X]), float(self.s[Y]), float(self.s[TH])

    @property
    def bias(self) -> float:
        return float(self.s[BIAS])

    def predict(self, new_state: np.ndarray, F: np.ndarray, G: np.ndarray, M: np.ndarray) -> None:
        self.P = F @ self.P @ F.T + G @ M @ G.T
        self.s = np.array(new_state, dtype=float)
        self.s[TH] = wrap(self.s[TH])

    def add_bias_walk(self, variance: float) -> None:
        """The bias is a random walk: its variance grows with time whether the robot moves or not."""
        self.P[BIAS, BIAS] += variance

    def innovation_stats(self, H: np.ndarray, nu: np.ndarray, R: np.ndarray):
        """(squared Mahalanobis distance, S^-1) of innovation nu."""
        S = H @ self.P @ H.T + R
        S_inv = np.linalg.inv(S)
        return float(nu @ S_inv @ nu), S_inv

    def correct(self, H: np.ndarray, nu: np.ndarray, R: np.ndarray, S_inv: np.ndarray) -> None:
        K = self.P @ H.T @ S_inv
        self.s = self.s + K @ nu
        self.s[TH] = wrap(self.s[TH])
        A = np.eye(4) - K @ H
        self.P = A @ self.P @ A.T + K @ R @ K.T

    def observe_bias(self, rate: float, sigma: float) -> None:
        """A gyro sample taken while the wheels stand still measures the bias alone (zero-velocity update)."""
        S = self.P[BIAS, BIAS] + sigma * sigma
        K = self.P[:, BIAS] / S
        self.s = self.s + K * (rate - self.s[BIAS])
        self.P = self.P - np.outer(K, self.P[BIAS, :])
        self.P = 0.5 * (self.P + self.P.T)
