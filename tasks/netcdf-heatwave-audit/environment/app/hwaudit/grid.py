# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Region boxes on the grid and regional means."""

from __future__ import annotations

import numpy as np

from .config import Region


def box_slices(lat: np.ndarray, lon: np.ndarray, region: Region) -> tuple[slice, slice]:
    """Index ranges of the cells whose centre lies in the box (edges included)."""
    i0 = int(np.searchsorted(lat, region.south, side="left"))
    i1 = int(np.searchsorted(lat, region.north, side="right"))
    j0 = int(np.searchsorted(lon, region.west, side="left"))
    j1 = int(np.searchsorted(lon, region.east, side="right"))
    return slice(i0, i1), slice(j0, j1)


def regional_mean(celsius: np.ndarray, lat: np.ndarray, lon: np.ndarray, region: Region) -> np.ndarray:
    """Daily mean over the box's cells."""
    rows, cols = box_slices(lat, lon, region)
    return celsius[:, rows, cols].mean(axis=(1, 2))
