# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Angle helpers. Headings and bearings are radians; the canonical interval is (-pi, pi]."""

from __future__ import annotations

import math

TWO_PI = 2.0 * math.pi


def wrap(angle: float) -> float:
    """The angle equivalent to ``angle`` in (-pi, pi]."""
    a = math.fmod(angle + math.pi, TWO_PI)
    if a <= 0.0:
        a += TWO_PI
    return a - math.pi


def angle_diff(a: float, b: float) -> float:
    """a - b, wrapped: the signed rotation that takes b to a."""
    return wrap(a - b)


def deg(angle: float) -> float:
    return angle * 180.0 / math.pi
