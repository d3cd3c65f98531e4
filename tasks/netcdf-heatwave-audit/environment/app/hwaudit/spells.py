# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Hot days and heatwave spells."""

from __future__ import annotations

import numpy as np


def hot_days(values: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """A day is hot when its value is above its threshold."""
    return values > limits


def find_spells(hot: np.ndarray, min_length: int) -> list[tuple[int, int]]:
    """(start, length) of every run of hot days longer than min_length."""
    spells = []
    run = 0
    for k, flag in enumerate(hot.tolist()):
        if flag:
            run += 1
            continue
        if run > min_length:
            spells.append((k - run, run))
        run = 0
    return spells
