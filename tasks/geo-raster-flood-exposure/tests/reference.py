# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own implementation of the exposure method, computed from a scene's plain truth.

Layers are dicts with ``crs`` (a user-input string), ``gt`` (north-up, south-up or turned affine, longitudes as
the truth has them), ``width``, ``height`` and ``values`` (depth in metres with NaN for no data; population
counts or densities per km² with NaN; zone ids with 0 for no zone). ``report(scene)`` is the expected output.
"""

from __future__ import annotations

import math

import numpy as np
from osgeo import osr

osr.UseExceptions()
EARTH_RADIUS_M = 6_371_007.2


def _srs(text: str) -> osr.SpatialReference:
    srs = osr.SpatialReference()
    srs.SetFromUserInput(text)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def _to(src: str, dst: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if src == dst:
        return x, y
    ct = osr.CoordinateTransformation(_srs(src), _srs(dst))
    out = np.asarray(ct.TransformPoints(np.column_stack([x, y])), dtype=float)
    return out[:, 0], out[:, 1]


def _cell_index(layer: dict, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Flat index of the cell holding each point, -1 outside the grid."""
    a0, a, b, d0, d, e = layer["gt"]
    if _srs(layer["crs"]).IsGeographic():
        west = min(a0, a0 + a * layer["width"])
        x = west + np.mod(x - west, 360.0)
    det = a * e - b * d
    dx, dy = x - a0, y - d0
    col = np.floor((e * dx - b * dy) / det)
    row = np.floor((a * dy - d * dx) / det)
    inside = (col >= 0) & (col < layer["width"]) & (row >= 0) & (row < layer["height"])
    return np.where(inside, row * layer["width"] + col, -1).astype(np.int64)


def _grid_points(layer: dict, n: int) -> tuple[np.ndarray, np.ndarray]:
    """World coordinates of the n x n sub-cell centres of every cell, cell-major (cell k owns [k*n*n, (k+1)*n*n))."""
    offsets = (np.arange(n) + 0.5) / n
    sub_col, sub_row = np.meshgrid(offsets, offsets)
    rows, cols = np.divmod(np.arange(layer["width"] * layer["height"]), layer["width"])
    pc = (cols[:, None] + sub_col.ravel()[None, :]).ravel()
    pr = (rows[:, None] + sub_row.ravel()[None, :]).ravel()
    a0, a, b, d0, d, e = layer["gt"]
    return a0 + pc * a + pr * b, d0 + pc * d + pr * e


def cell_areas_km2(layer: dict) -> np.ndarray:
    """(height, width) areas of the layer's cells in km²."""
    a0, a, b, d0, d, e = layer["gt"]
    srs = _srs(layer["crs"])
    h, w = layer["height"], layer["width"]
    if srs.IsGeographic():
        assert b == 0 and d == 0
        edges = np.radians(d0 + np.arange(h + 1) * e)
        band = EARTH_RADIUS_M ** 2 * math.radians(abs(a)) * np.abs(np.diff(np.sin(edges)))
        return np.repeat(band[:, None] / 1e6, w, axis=1)
    unit = srs.GetLinearUnits()
    return np.full((h, w), abs(a * e - b * d) * unit * unit / 1e6)


def _values_at(layer: dict, x: np.ndarray, y: np.ndarray, missing):
    index = _cell_index(layer, x, y)
    flat = np.asarray(layer["values"]).ravel()
    return np.where(index >= 0, flat[np.maximum(index, 0)], missing)


def report(scene: dict) -> dict:
    depth, pop, zones = scene["depth"], scene["population"], scene["zones"]
    thresholds, n = scene["thresholds"], scene["subcells"]

    counts = np.asarray(pop["values"], dtype=float)
    if pop["kind"] == "density_km2":
        counts = counts * cell_areas_km2(pop)
    counts = np.where(np.isfinite(counts), counts, 0.0).ravel()
    weights = np.repeat(counts / (n * n), n * n)

    px, py = _grid_points(pop, n)
    dx, dy = _to(pop["crs"], depth["crs"], px, py)
    sub_depth = _values_at(depth, dx, dy, np.nan)
    zx, zy = _to(pop["crs"], zones["crs"], px, py)
    sub_zone = _values_at(zones, zx, zy, 0)

    ids = np.unique(np.asarray(zones["values"]))
    ids = ids[ids > 0]
    slot = {int(z): k for k, z in enumerate(ids)}

    def per_zone(zone_of: np.ndarray, values: np.ndarray) -> np.ndarray:
        keep = zone_of > 0
        where = np.searchsorted(ids, zone_of[keep])
        return np.bincount(where, weights=values[keep], minlength=len(ids))

    population = per_zone(sub_zone, weights)
    unassessed = per_zone(sub_zone, np.where(np.isnan(sub_depth), weights, 0.0))
    exposed = [per_zone(sub_zone, np.where(sub_depth >= t, weights, 0.0)) for t in thresholds]

    cx, cy = _grid_points(depth, 1)
    zx, zy = _to(depth["crs"], zones["crs"], cx, cy)
    pixel_zone = _values_at(zones, zx, zy, 0)
    dvals = np.asarray(depth["values"], dtype=float).ravel()
    areas = cell_areas_km2(depth).ravel()
    flooded = per_zone(pixel_zone, np.where(dvals > 0, areas, 0.0))
    max_depth = np.full(len(ids), -np.inf)
    valid = (pixel_zone > 0) & np.isfinite(dvals)
    np.maximum.at(max_depth, np.searchsorted(ids, pixel_zone[valid]), dvals[valid])

    out_zones = {}
    for z, k in slot.items():
        out_zones[str(z)] = {
            "population": float(population[k]),
            "unassessed": float(unassessed[k]),
            "exposed": [float(e[k]) for e in exposed],
            "flooded_km2": float(flooded[k]),
            "max_depth_m": None if max_depth[k] == -np.inf else float(max_depth[k]),
        }
    return {"scenario": scene["name"], "population_total": float(counts.sum()), "zones": out_zones}


def coverage(scene: dict) -> dict:
    """Fractions of sub-cell centres outside the depth and zone grids and of depth centres outside the zone grid
    (the generator keeps them at 0 where a family promises full coverage)."""
    depth, pop, zones = scene["depth"], scene["population"], scene["zones"]
    px, py = _grid_points(pop, scene["subcells"])
    out = {}
    x, y = _to(pop["crs"], depth["crs"], px, py)
    out["pop_outside_depth"] = float(np.mean(_cell_index(depth, x, y) < 0))
    x, y = _to(pop["crs"], zones["crs"], px, py)
    out["pop_outside_zones"] = float(np.mean(_cell_index(zones, x, y) < 0))
    cx, cy = _grid_points(depth, 1)
    x, y = _to(depth["crs"], zones["crs"], cx, cy)
    out["depth_outside_zones"] = float(np.mean(_cell_index(zones, x, y) < 0))
    return out
