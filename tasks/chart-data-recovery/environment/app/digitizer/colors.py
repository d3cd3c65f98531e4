# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Colour classification: which series (if any) a pixel belongs to.

A pixel belongs to a series when every channel is within a few units of the series colour.
"""

from __future__ import annotations

import numpy as np



def classify(rgb: np.ndarray, series_colors: list[tuple[int, int, int]]) -> np.ndarray:
    """(H, W) int array: index of the series a pixel belongs to, or -1."""
    labels = np.full(rgb.shape[:2], -1, dtype=np.int64)
    for index, color in enumerate(series_colors):
        close = (np.abs(rgb - np.array(color, dtype=np.float64)) <= 6).all(axis=2)
        labels[close & (labels < 0)] = index
    return labels


def series_mask(labels: np.ndarray, index: int) -> np.ndarray:
    return labels == index
