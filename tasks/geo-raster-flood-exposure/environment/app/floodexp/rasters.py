# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading one raster layer, with no data as NaN."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from osgeo import gdal, osr

from floodexp import crs as crs_mod
from floodexp.area import cell_area_km2
from floodexp.georef import Grid
from floodexp.manifest import LayerSpec

gdal.UseExceptions()
DEFAULT_NODATA = -9999.0


class RasterError(ValueError):
    pass


@dataclass
class Raster:
    path: Path
    values: np.ndarray  # float64, shape (height, width); NaN where there is no data
    grid: Grid
    srs: osr.SpatialReference | None

    @property
    def geographic(self) -> bool:
        return crs_mod.is_geographic(self.srs)

    def cell_area_km2(self) -> float:
        return cell_area_km2(self.grid, self.geographic)


def read_raster(path: Path, spec: LayerSpec) -> Raster:
    """Band 1 of ``path`` as float64 with its nodata value replaced by NaN."""
    try:
        ds = gdal.Open(str(path))
    except RuntimeError as exc:
        raise RasterError(f"cannot open {path}: {exc}") from exc
    band = ds.GetRasterBand(1)
    values = band.ReadAsArray().astype(np.float64)
    nodata = band.GetNoDataValue() or DEFAULT_NODATA
    values[values == nodata] = np.nan
    grid = Grid(tuple(float(g) for g in ds.GetGeoTransform()), ds.RasterXSize, ds.RasterYSize)
    return Raster(path, values, grid, crs_mod.srs_of_dataset(ds))


def read_layer(spec: LayerSpec) -> Raster:
    return read_raster(spec.paths[0], spec)
