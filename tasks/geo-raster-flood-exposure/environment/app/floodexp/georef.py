# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Raster grids: the geotransform between pixel and world coordinates, and locating points in a grid."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Grid:
    """``gt`` is GDAL's geotransform (x0, pixel width, 0, y0, 0, -pixel height) of a north-up raster."""

    gt: tuple[float, float, float, float, float, float]
    width: int
    height: int

    @property
    def pixel_width(self) -> float:
        return self.gt[1]

    @property
    def pixel_height(self) -> float:
        return abs(self.gt[5])

    @property
    def size(self) -> int:
        return self.width * self.height

    def to_world(self, col: float, row: float) -> tuple[float, float]:
        """World coordinates of a (fractional) pixel position."""
        return self.gt[0] + col * self.pixel_width, self.gt[3] - row * self.pixel_height

    def to_pixel(self, x: float, y: float) -> tuple[float, float]:
        """Fractional (col, row) of a world point."""
        return (x - self.gt[0]) / self.pixel_width, (self.gt[3] - y) / self.pixel_height

    def locate(self, x: float, y: float) -> tuple[int, int]:
        """(row, col) of the cell holding a point, kept inside the raster."""
        col, row = self.to_pixel(x, y)
        col = min(max(int(col), 0), self.width - 1)
        row = min(max(int(row), 0), self.height - 1)
        return row, col

    def locate_many(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``locate`` for arrays of points."""
        col = np.clip(((x - self.gt[0]) / self.pixel_width).astype(np.int64), 0, self.width - 1)
        row = np.clip(((self.gt[3] - y) / self.pixel_height).astype(np.int64), 0, self.height - 1)
        return row, col

    def centres(self) -> tuple[np.ndarray, np.ndarray]:
        """World coordinates of every pixel centre, shape (height, width)."""
        cols, rows = np.meshgrid(np.arange(self.width) + 0.5, np.arange(self.height) + 0.5)
        return self.gt[0] + cols * self.pixel_width, self.gt[3] - rows * self.pixel_height
