# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cell areas in km²: planar in projected CRSs, on the authalic sphere in geographic ones."""

from __future__ import annotations

import math

import numpy as np

from floodexp.georef import Grid

EARTH_RADIUS_M = 6_371_007.2  # radius of the sphere with the WGS 84 ellipsoid's surface area


def cell_areas_km2(grid: Grid, metres_per_unit: float = 1.0) -> np.ndarray:
    """Area of every cell, shape (height, width). ``metres_per_unit`` is the projected CRS's linear unit."""
    _x0, a, b, _y0, d, e = grid.gt
    if grid.geographic:
        lat = np.radians(grid.row_edges_y())
        band = EARTH_RADIUS_M ** 2 * math.radians(abs(a)) * np.abs(np.diff(np.sin(lat))) / 1e6
        return np.repeat(band[:, None], grid.width, axis=1)
    return np.full((grid.height, grid.width), abs(a * e - b * d) * metres_per_unit ** 2 / 1e6)
