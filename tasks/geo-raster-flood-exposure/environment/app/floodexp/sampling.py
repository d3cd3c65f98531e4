# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Spreading population cells over sub-cells, so people keep their count wherever they are sampled."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from floodexp.rasters import Raster


def subcells(pop: Raster, n: int) -> Iterator[tuple[float, float, float]]:
    """(x, y, people) of the n x n sub-cell centres of every populated cell, in the population CRS."""
    values = pop.values
    for row in range(pop.grid.height):
        for col in range(pop.grid.width):
            count = values[row, col]
            if not count > 0:
                continue
            share = float(count) / (n * n)
            for i in range(n):
                for j in range(n):
                    x, y = pop.grid.to_world(col + (j + 0.5) / n, row + (i + 0.5) / n)
                    yield x, y, share


def population_total(pop: Raster) -> float:
    return float(np.nansum(pop.values))
