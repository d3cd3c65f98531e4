# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Spatial reference systems and vectorised coordinate transformations between them."""

from __future__ import annotations

import numpy as np
from osgeo import osr

osr.UseExceptions()


class CrsError(ValueError):
    pass


def srs_from_text(text: str) -> osr.SpatialReference:
    """An SRS from anything SetFromUserInput accepts (EPSG:32633, ESRI:54009, WKT, PROJ strings), x/y order."""
    srs = osr.SpatialReference()
    try:
        srs.SetFromUserInput(text)
    except RuntimeError as exc:
        raise CrsError(f"cannot understand CRS {text!r}: {exc}") from exc
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def srs_of_dataset(ds, override: str | None, where: str) -> osr.SpatialReference:
    """The dataset's SRS, or the manifest's ``override`` when given; easting/longitude first either way."""
    if override:
        return srs_from_text(override)
    wkt = ds.GetProjection()
    if not wkt:
        raise CrsError(f"{where} has no CRS and the manifest gives none")
    return srs_from_text(wkt)


def is_geographic(srs: osr.SpatialReference) -> bool:
    return bool(srs.IsGeographic())


def metres_per_linear_unit(srs: osr.SpatialReference) -> float:
    return float(srs.GetLinearUnits())


class Transformer:
    """Moves arrays of points from one SRS to another (a no-op between equal systems)."""

    def __init__(self, src: osr.SpatialReference, dst: osr.SpatialReference) -> None:
        self.identity = bool(src.IsSame(dst))
        self._ct = None if self.identity else osr.CoordinateTransformation(src, dst)

    def __call__(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.identity or x.size == 0:
            return x, y
        out = np.asarray(self._ct.TransformPoints(np.column_stack([x, y])), dtype=float)
        return out[:, 0], out[:, 1]
