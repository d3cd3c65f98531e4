# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reading one raster layer into metres, people or zone ids, with no data as NaN."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from osgeo import gdal, osr

from floodexp import crs as crs_mod
from floodexp.area import cell_areas_km2
from floodexp.georef import Grid
from floodexp.manifest import LayerSpec
from floodexp.units import metres_per_unit

gdal.UseExceptions()


class RasterError(ValueError):
    pass


@dataclass
class Raster:
    path: Path
    values: np.ndarray  # float64, shape (height, width); NaN where there is no data
    grid: Grid
    srs: osr.SpatialReference

    def areas_km2(self) -> np.ndarray:
        unit = 1.0 if self.grid.geographic else crs_mod.metres_per_linear_unit(self.srs)
        return cell_areas_km2(self.grid, unit)


def _nodata_mask(raw: np.ndarray, nodata: float | None) -> np.ndarray:
    """True where ``raw`` (as stored) is no data: NaN always, and the nodata value compared in the band's type."""
    mask = np.isnan(raw) if raw.dtype.kind == "f" else np.zeros(raw.shape, bool)
    if nodata is None or math.isnan(nodata):
        return mask
    if raw.dtype.kind in "iu":
        info = np.iinfo(raw.dtype)
        if nodata != int(nodata) or not info.min <= nodata <= info.max:
            return mask  # a nodata value the band cannot even hold marks nothing
        return mask | (raw == raw.dtype.type(int(nodata)))
    return mask | (raw == raw.dtype.type(nodata))


def read_raster(path: Path, spec: LayerSpec) -> Raster:
    """Band 1 of ``path`` decoded: raw * scale + offset (manifest values replace the file's), no data as NaN,
    depth converted to metres from the band's (or the manifest's) unit."""
    try:
        ds = gdal.Open(str(path))
    except RuntimeError as exc:
        raise RasterError(f"cannot open {path}: {exc}") from exc
    band = ds.GetRasterBand(1)
    raw = band.ReadAsArray()
    nodata = spec.nodata if spec.nodata is not None else band.GetNoDataValue()
    mask = _nodata_mask(raw, nodata)
    scale = spec.scale if spec.scale is not None else band.GetScale()
    offset = spec.offset if spec.offset is not None else band.GetOffset()
    values = raw.astype(np.float64)
    if scale is not None and scale != 1.0:
        values = values * scale
    if offset:
        values = values + offset
    if spec.role == "depth":
        unit = spec.unit if spec.unit is not None else band.GetUnitType()
        factor = metres_per_unit(unit)
        if factor != 1.0:
            values = values * factor
    values[mask] = np.nan
    srs = crs_mod.srs_of_dataset(ds, spec.crs, str(path))
    grid = Grid(tuple(float(g) for g in ds.GetGeoTransform()), ds.RasterXSize, ds.RasterYSize,
                crs_mod.is_geographic(srs))
    if grid.geographic and (grid.gt[2] != 0 or grid.gt[4] != 0):
        raise RasterError(f"{path}: turned grids in a geographic CRS are not supported")
    return Raster(path, values, grid, srs)


def read_layer(spec: LayerSpec) -> list[Raster]:
    """Every raster of a layer: one, or its tiles in manifest order."""
    return [read_raster(path, spec) for path in spec.paths]
