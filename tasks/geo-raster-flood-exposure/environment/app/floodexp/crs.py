# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Spatial reference systems and coordinate transformations between them."""

from __future__ import annotations

from osgeo import osr

osr.UseExceptions()


class CrsError(ValueError):
    pass


def srs_from_text(text: str) -> osr.SpatialReference:
    """An SRS from anything SetFromUserInput accepts (EPSG:32633, ESRI:54009, WKT, PROJ strings)."""
    srs = osr.SpatialReference()
    try:
        srs.SetFromUserInput(text)
    except RuntimeError as exc:
        raise CrsError(f"cannot understand CRS {text!r}: {exc}") from exc
    return srs


def srs_of_dataset(ds) -> osr.SpatialReference | None:
    """The dataset's SRS (None when the file carries no CRS)."""
    wkt = ds.GetProjection()
    return osr.SpatialReference(wkt=wkt) if wkt else None


def is_geographic(srs: osr.SpatialReference | None) -> bool:
    return bool(srs is not None and srs.IsGeographic())


class PointTransformer:
    """Moves single points from one SRS to another (a no-op between equal systems)."""

    def __init__(self, src: osr.SpatialReference | None, dst: osr.SpatialReference | None) -> None:
        self.identity = src is None or dst is None or bool(src.IsSame(dst))
        self._ct = None if self.identity else osr.CoordinateTransformation(src, dst)

    def point(self, x: float, y: float) -> tuple[float, float]:
        if self.identity:
            return x, y
        tx, ty, _ = self._ct.TransformPoint(x, y)
        return tx, ty
