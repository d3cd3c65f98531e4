# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Spreading population cells over sub-cells, so people keep their count wherever they are sampled."""

from __future__ import annotations

import numpy as np

from floodexp.rasters import Raster


def cell_counts(pop: Raster, kind: str) -> np.ndarray:
    """People per cell (height, width): counts as they are, densities per km² times the cell's area; no data
    is nobody."""
    values = pop.values
    if kind == "density_km2":
        values = values * pop.areas_km2()
    return np.where(np.isfinite(values), values, 0.0)


def subcells(pop: Raster, kind: str, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(x, y, people) of the n x n sub-cell centres of every population cell, in the population CRS, and the
    raster's total population."""
    counts = cell_counts(pop, kind).ravel()
    x, y = pop.grid.cell_points(n)
    people = np.repeat(counts / (n * n), n * n)
    keep = people > 0
    return x[keep], y[keep], people[keep], float(counts.sum())
