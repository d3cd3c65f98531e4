# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Surveyed landmarks and the range-bearing measurement model.

The scanner sits ``sensor_offset`` ahead of the axle centre on the robot's centre line. For landmark m:

    dx = mx - x - d cos th,  dy = my - y - d sin th
    range = sqrt(dx^2 + dy^2),  bearing = atan2(dy, dx) - th   (wrapped)

A detection names its landmark by id, or carries id 0 when the tag could not be read (plain reflectors always
do); those are associated with the map landmark of smallest Mahalanobis distance. Any detection whose squared
Mahalanobis distance exceeds the gate (chi-square, 2 dof, 99 %) is rejected: misread ids and spurious returns
must not pull the estimate.
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .angles import wrap

GATE_CHI2 = 9.21


@dataclass(frozen=True)
class Landmark:
    ident: int
    x: float
    y: float


class LandmarkMap:
    def __init__(self, landmarks: list[Landmark]) -> None:
        self.landmarks = sorted(landmarks, key=lambda m: m.ident)
        self.by_id = {m.ident: m for m in self.landmarks}
        self.xy = np.array([[m.x, m.y] for m in self.landmarks], dtype=float).reshape(-1, 2)

    def __len__(self) -> int:
        return len(self.landmarks)

    @classmethod
    def read(cls, path: str | Path) -> "LandmarkMap":
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        marks = [Landmark(int(r["id"]), float(r["x"]), float(r["y"])) for r in rows if r.get("id", "").strip()]
        return cls(marks)


def predict_measurement(s: np.ndarray, mx: float, my: float, offset: float):
    """(predicted [range, bearing], H = d h / d state)."""
    x, y, th = float(s[0]), float(s[1]), float(s[2])
    c, sn = math.cos(th), math.sin(th)
    dx = mx - x - offset * c
    dy = my - y - offset * sn
    q = dx * dx + dy * dy
    r = math.sqrt(q)
    h = np.array([r, wrap(math.atan2(dy, dx) - th)])
    H = np.array([[-dx / r, -dy / r, offset * (dx * sn - dy * c) / r, 0.0],
                  [dy / q, -dx / q, -offset * (dx * c + dy * sn) / q - 1.0, 0.0]])
    return h, H


def innovation(z: tuple[float, float], h: np.ndarray) -> np.ndarray:
    return np.array([z[0] - h[0], wrap(z[1] - h[1])])


def nearest_landmark(s: np.ndarray, P: np.ndarray, z: tuple[float, float], lmap: LandmarkMap,
                     offset: float, R: np.ndarray) -> int | None:
    """Index (into lmap.landmarks) of the landmark with the smallest Mahalanobis distance to detection z."""
    if len(lmap) == 0:
        return None
    x, y, th = float(s[0]), float(s[1]), float(s[2])
    c, sn = math.cos(th), math.sin(th)
    dx = lmap.xy[:, 0] - x - offset * c
    dy = lmap.xy[:, 1] - y - offset * sn
    q = dx * dx + dy * dy
    r = np.sqrt(q)
    bearing = np.arctan2(dy, dx) - th
    nu_r = z[0] - r
    nu_b = np.mod(z[1] - bearing + math.pi, 2.0 * math.pi) - math.pi
    n = len(lmap)
    H = np.zeros((n, 2, 4))
    H[:, 0, 0], H[:, 0, 1] = -dx / r, -dy / r
    H[:, 0, 2] = offset * (dx * sn - dy * c) / r
    H[:, 1, 0], H[:, 1, 1] = dy / q, -dx / q
    H[:, 1, 2] = -offset * (dx * c + dy * sn) / q - 1.0
    S = H @ P @ H.transpose(0, 2, 1) + R
    det = S[:, 0, 0] * S[:, 1, 1] - S[:, 0, 1] * S[:, 1, 0]
    d2 = (S[:, 1, 1] * nu_r * nu_r - (S[:, 0, 1] + S[:, 1, 0]) * nu_r * nu_b + S[:, 0, 0] * nu_b * nu_b) / det
    return int(np.argmin(d2))
