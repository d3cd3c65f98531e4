# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Raster grids: the affine geotransform between pixel and world coordinates, and locating points in a grid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class GridError(ValueError):
    pass


@dataclass(frozen=True)
class Grid:
    """``gt`` is GDAL's geotransform (x0, a, b, y0, d, e): x = x0 + a*col + b*row, y = y0 + d*col + e*row.
    North-up grids have b = d = 0 and e < 0; south-up grids e > 0; turned grids non-zero b and d."""

    gt: tuple[float, float, float, float, float, float]
    width: int
    height: int
    geographic: bool = False

    def __post_init__(self) -> None:
        _x0, a, b, _y0, d, e = self.gt
        if a * e - b * d == 0:
            raise GridError(f"degenerate geotransform {self.gt}")

    @property
    def size(self) -> int:
        return self.width * self.height

    def to_world(self, col: np.ndarray, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x0, a, b, y0, d, e = self.gt
        return x0 + col * a + row * b, y0 + col * d + row * e

    def to_pixel(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Fractional (col, row) of world points; longitudes are first brought next to a geographic grid."""
        x0, a, b, y0, d, e = self.gt
        if self.geographic:
            x = self.wrap_longitude(x)
        det = a * e - b * d
        dx, dy = x - x0, y - y0
        return (e * dx - b * dy) / det, (a * dy - d * dx) / det

    def west_edge(self) -> float:
        x0, a, b, _y0, _d, _e = self.gt
        return min(x0, x0 + a * self.width, x0 + b * self.height, x0 + a * self.width + b * self.height)

    def wrap_longitude(self, lon: np.ndarray) -> np.ndarray:
        """Shift longitudes by whole turns into [west edge, west edge + 360): 0..360 grids, grids over 180."""
        west = self.west_edge()
        return west + np.mod(lon - west, 360.0)

    def locate(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Flat cell index (row * width + col) of each point, -1 for points outside the grid."""
        col, row = self.to_pixel(x, y)
        col, row = np.floor(col), np.floor(row)
        inside = (col >= 0) & (col < self.width) & (row >= 0) & (row < self.height)
        return np.where(inside, row * self.width + col, -1).astype(np.int64)

    def cell_points(self, n: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """World coordinates of the centres of an n x n split of every cell, cell by cell in row-major order:
        cell k owns points [k*n*n, (k+1)*n*n)."""
        offsets = (np.arange(n) + 0.5) / n
        sub_col, sub_row = np.meshgrid(offsets, offsets)
        rows, cols = np.divmod(np.arange(self.size), self.width)
        col = (cols[:, None] + sub_col.ravel()[None, :]).ravel()
        row = (rows[:, None] + sub_row.ravel()[None, :]).ravel()
        return self.to_world(col, row)

    def row_edges_y(self) -> np.ndarray:
        """y of the horizontal cell edges (height + 1 values) of a grid without rotation terms."""
        x0, a, b, y0, d, e = self.gt
        if b != 0 or d != 0:
            raise GridError("row edges are only defined for grids without rotation")
        return y0 + np.arange(self.height + 1) * e
