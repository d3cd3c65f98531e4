# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A depth layer delivered as one raster or as several non-overlapping tiles in one CRS."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from osgeo import osr

from floodexp.crs import Transformer
from floodexp.rasters import Raster


class Mosaic:
    def __init__(self, tiles: list[Raster]) -> None:
        if not tiles:
            raise ValueError("a mosaic needs at least one tile")
        self.tiles = tiles
        self.srs: osr.SpatialReference = tiles[0].srs

    def sample(self, x: np.ndarray, y: np.ndarray, src: osr.SpatialReference) -> np.ndarray:
        """Depth (metres) at points given in ``src``; NaN where no tile has data. The first tile containing
        a point decides."""
        tx, ty = Transformer(src, self.srs)(x, y)
        out = np.full(tx.shape, np.nan)
        pending = np.ones(tx.shape, bool)
        for tile in self.tiles:
            if tile.srs is not self.srs and not tile.srs.IsSame(self.srs):
                px, py = Transformer(src, tile.srs)(x, y)
            else:
                px, py = tx, ty
            index = tile.grid.locate(px, py)
            hit = pending & (index >= 0)
            out[hit] = tile.values.ravel()[index[hit]]
            pending &= ~hit
        return out

    def pixels(self) -> Iterator[tuple[Raster, np.ndarray, np.ndarray]]:
        """(tile, x, y of every pixel centre in the tile's CRS), tile by tile."""
        for tile in self.tiles:
            x, y = tile.grid.cell_points(1)
            yield tile, x, y
