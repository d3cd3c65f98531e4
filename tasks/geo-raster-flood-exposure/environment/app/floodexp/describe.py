# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""What a scenario's files say about themselves: for checking a delivery before running it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from osgeo import gdal

from floodexp.manifest import LayerSpec, Scenario

gdal.UseExceptions()


def _finite(value):
    return None if value is None or (isinstance(value, float) and not math.isfinite(value)) else value


def describe_file(path: Path) -> dict:
    """Size, data type, geotransform, CRS and band metadata of ``path`` as stored (nothing decoded)."""
    ds = gdal.Open(str(path))
    band = ds.GetRasterBand(1)
    srs = ds.GetSpatialRef()
    raw = band.ReadAsArray()
    finite = raw[np.isfinite(raw)] if raw.dtype.kind == "f" else raw.ravel()
    nodata = band.GetNoDataValue()
    return {
        "path": str(path),
        "size": [ds.RasterXSize, ds.RasterYSize],
        "bands": ds.RasterCount,
        "dtype": gdal.GetDataTypeName(band.DataType),
        "geotransform": list(ds.GetGeoTransform()),
        "crs": srs.GetName() if srs is not None else None,
        "crs_authority": (f"{srs.GetAuthorityName(None)}:{srs.GetAuthorityCode(None)}"
                          if srs is not None and srs.GetAuthorityCode(None) else None),
        "nodata": "nan" if nodata is not None and math.isnan(nodata) else nodata,
        "scale": band.GetScale(),
        "offset": band.GetOffset(),
        "unit": band.GetUnitType(),
        "stored_min": _finite(float(finite.min())) if finite.size else None,
        "stored_max": _finite(float(finite.max())) if finite.size else None,
        "has_nan": bool(raw.dtype.kind == "f" and np.isnan(raw).any()),
    }


def describe_layer(spec: LayerSpec) -> dict:
    manifest = {key: getattr(spec, key) for key in ("crs", "nodata", "scale", "offset", "unit")
                if getattr(spec, key) is not None}
    if spec.role == "population":
        manifest["kind"] = spec.kind
    return {"manifest": manifest, "files": [describe_file(path) for path in spec.paths]}


def describe(scenario: Scenario) -> dict:
    return {"scenario": scenario.name, "thresholds_m": scenario.thresholds, "subcells": scenario.subcells,
            "depth": describe_layer(scenario.depth), "population": describe_layer(scenario.population),
            "zones": describe_layer(scenario.zones)}
