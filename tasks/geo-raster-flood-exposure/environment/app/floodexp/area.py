# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cell areas in km²."""

from __future__ import annotations

from floodexp.georef import Grid

KM_PER_DEGREE = 111.32


def cell_area_km2(grid: Grid, geographic: bool) -> float:
    """Area of one cell of ``grid`` (all cells of a grid have the same area)."""
    if geographic:
        return abs(grid.pixel_width * grid.pixel_height) * KM_PER_DEGREE ** 2
    return abs(grid.pixel_width * grid.pixel_height) / 1e6
