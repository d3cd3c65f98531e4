# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded flood-exposure scenarios: the plain truth (grids, metres, counts, zone ids) and the files that encode it.

A scene is three layers over one study area: flood depth (metres, NaN = no data), population (counts or
densities per km², NaN = no data) and zones (int ids, 0 = no zone), each on its own affine grid in its own CRS.
``make_scene(rng, family)`` draws one; ``write_scene(scene, directory)`` writes it the way the family's data
providers deliver it (packed integers, south-up rows, 0..360 longitudes, tiles, nodata only in the manifest,
CRS only in the manifest, ...) and returns the manifest path. tests/reference.py grades from the plain scene,
never from the files.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()

FAMILIES = ["clean", "nodata", "packed", "orientation", "edges", "projections", "geographic", "antimeridian",
            "mosaic", "density_units", "large", "everything"]
THRESHOLD_SETS = [[0.15, 0.5, 1.5], [0.1, 0.3, 1.0, 2.0], [0.25, 1.0], [0.5, 1.0, 2.0], [0.2, 0.6, 1.2, 2.5]]
DEFAULT_THRESHOLDS = [0.15, 0.5, 1.5]
DEFAULT_SUBCELLS = 4
FT = 0.3048
US_FT = 1200.0 / 3937.0

# (lat, lon, CRS) of US study areas inside a State Plane zone in US survey feet.
STATE_PLANE = [(40.78, -73.25, "EPSG:2263"), (34.08, -118.15, "EPSG:2229"), (29.55, -98.45, "EPSG:2278"),
               (27.6, -80.55, "EPSG:2236")]
# Study areas next to the antimeridian: (lat, lon of the centre).
ANTIMERIDIAN = [(-17.2, 179.99), (-16.6, -179.99), (65.6, 179.995), (51.9, -179.995), (-41.9, 179.985)]
GTIFF = gdal.GetDriverByName("GTiff")
GDT = {"Byte": gdal.GDT_Byte, "Int16": gdal.GDT_Int16, "UInt16": gdal.GDT_UInt16, "Int32": gdal.GDT_Int32,
       "Float32": gdal.GDT_Float32}
NP = {"Byte": np.uint8, "Int16": np.int16, "UInt16": np.uint16, "Int32": np.int32, "Float32": np.float32}


def srs_of(text: str) -> osr.SpatialReference:
    srs = osr.SpatialReference()
    srs.SetFromUserInput(text)
    srs.SetAxisMappingStrategy(osr.OAMS_TRADITIONAL_GIS_ORDER)
    return srs


def transform(src: str, dst: str, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if src == dst:
        return x.astype(float), y.astype(float)
    ct = osr.CoordinateTransformation(srs_of(src), srs_of(dst))
    pts = np.column_stack([np.ravel(x), np.ravel(y)]).astype(float)
    out = np.array(ct.TransformPoints(pts), dtype=float)
    return out[:, 0].reshape(np.shape(x)), out[:, 1].reshape(np.shape(y))


def is_geographic(crs: str) -> bool:
    return bool(srs_of(crs).IsGeographic())


def utm_of(lat: float, lon: float) -> str:
    lon = (lon + 180.0) % 360.0 - 180.0
    zone = min(60, int((lon + 180.0) // 6.0) + 1)
    return f"EPSG:{(32600 if lat >= 0 else 32700) + zone}"


def uniform(rng: random.Random, low: float, high: float) -> float:
    return low + (high - low) * rng.random()


def randint(rng: random.Random, low: int, high: int) -> int:
    """An int in [low, high]."""
    return min(high, low + int(rng.random() * (high - low + 1)))


def pick(rng: random.Random, items):
    return items[min(int(rng.random() * len(items)), len(items) - 1)]


def shuffled(rng: random.Random, items: list) -> list:
    items = list(items)
    return [items.pop(min(int(rng.random() * len(items)), len(items) - 1)) for _ in range(len(items))]


# --------------------------------------------------------------------------------------------- grids


def study_ring(lat: float, lon: float, half_x_m: float, half_y_m: float, frac=(0.0, 1.0, 0.0, 1.0)):
    """Lon/lat points along the edge of a part of the study rectangle: frac = (x0, x1, y0, y1) in [0, 1]."""
    dlat = half_y_m / 111_320.0
    dlon = half_x_m / (111_320.0 * math.cos(math.radians(lat)))
    fx0, fx1, fy0, fy1 = frac
    lons0, lons1 = lon - dlon + 2 * dlon * fx0, lon - dlon + 2 * dlon * fx1
    lats0, lats1 = lat - dlat + 2 * dlat * fy0, lat - dlat + 2 * dlat * fy1
    t = np.linspace(0.0, 1.0, 25)
    xs = np.concatenate([lons0 + (lons1 - lons0) * t, np.full(25, lons1), lons1 - (lons1 - lons0) * t,
                         np.full(25, lons0)])
    ys = np.concatenate([np.full(25, lats0), lats0 + (lats1 - lats0) * t, np.full(25, lats1),
                         lats1 - (lats1 - lats0) * t])
    return xs, ys


def bbox_in(crs: str, ring_lon: np.ndarray, ring_lat: np.ndarray) -> tuple[float, float, float, float]:
    """The ring's bounding box in ``crs``; geographic grids are EPSG:4326 and keep the ring's own longitudes
    (which may run past 180 degrees)."""
    if is_geographic(crs):
        assert crs == "EPSG:4326"
        x, y = ring_lon, ring_lat
    else:
        x, y = transform("EPSG:4326", crs, (ring_lon + 180.0) % 360.0 - 180.0, ring_lat)
    return float(x.min()), float(x.max()), float(y.min()), float(y.max())


def north_up_grid(rng: random.Random, bbox, size: float, margin: float, size_y: float | None = None) -> dict:
    """A north-up grid with pixels ``size`` (x) by ``size_y`` covering bbox grown by ``margin`` of its extent."""
    size_y = size_y or size
    x0, x1, y0, y1 = bbox
    mx, my = (x1 - x0) * margin, (y1 - y0) * margin
    left = x0 - mx - uniform(rng, 0.13, 0.87) * size
    top = y1 + my + uniform(rng, 0.13, 0.87) * size_y
    width = int(math.ceil((x1 + mx - left) / size)) + 1
    height = int(math.ceil((top - (y0 - my)) / size_y)) + 1
    return {"gt": (left, size, 0.0, top, 0.0, -size_y), "width": width, "height": height}


def rotated_grid(rng: random.Random, bbox, size: float, margin: float, angle_deg: float) -> dict:
    """A grid turned by ``angle_deg`` that covers bbox grown by ``margin``."""
    x0, x1, y0, y1 = bbox
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = (x1 - x0) * (0.5 + margin), (y1 - y0) * (0.5 + margin)
    th = math.radians(angle_deg)
    # extent of the bbox in the rotated frame
    ext_u = abs(hw * math.cos(th)) + abs(hh * math.sin(th))
    ext_v = abs(hw * math.sin(th)) + abs(hh * math.cos(th))
    width = int(math.ceil(2 * ext_u / size)) + 2
    height = int(math.ceil(2 * ext_v / size)) + 2
    a, d = size * math.cos(th), size * math.sin(th)  # column step
    b, e = size * math.sin(th), -size * math.cos(th)  # row step
    jitter = uniform(rng, 0.1, 0.9)
    ox = cx - (width / 2 + jitter) * a - (height / 2) * b
    oy = cy - (width / 2 + jitter) * d - (height / 2) * e
    return {"gt": (ox, a, b, oy, d, e), "width": width, "height": height}


def pixel_centres(grid: dict) -> tuple[np.ndarray, np.ndarray]:
    gt = grid["gt"]
    cols, rows = np.meshgrid(np.arange(grid["width"]) + 0.5, np.arange(grid["height"]) + 0.5)
    return gt[0] + cols * gt[1] + rows * gt[2], gt[3] + cols * gt[4] + rows * gt[5]


# --------------------------------------------------------------------------------------------- content


def depth_field(rng: random.Random, grid: dict, unmodelled: bool) -> np.ndarray:
    """Metres: a meandering river with a flood plain, a few ponds, dry land (exactly 0) and, optionally, an
    unmodelled corner (NaN)."""
    h, w = grid["height"], grid["width"]
    rows, cols = np.mgrid[0:h, 0:w].astype(float)
    u, v = cols / w, rows / h
    horizontal = rng.random() < 0.5
    along, across = (u, v) if horizontal else (v, u)
    centre = uniform(rng, 0.35, 0.65) + uniform(rng, 0.06, 0.14) * np.sin(
        2 * math.pi * (uniform(rng, 0.6, 1.6) * along + rng.random()))
    half_width = uniform(rng, 0.08, 0.16)
    dist = np.abs(across - centre) / half_width
    depth = np.clip(uniform(rng, 2.2, 4.5) * (1.0 - dist), 0.0, None) * (0.8 + 0.4 * np.sin(7 * along + 3 * across))
    for _ in range(randint(rng, 2, 4)):
        pu, pv, radius = rng.random(), rng.random(), uniform(rng, 0.05, 0.12)
        r2 = ((u - pu) ** 2 + (v - pv) ** 2) / radius ** 2
        depth = np.maximum(depth, np.clip(uniform(rng, 0.4, 2.0) * (1 - r2), 0.0, None))
    ripple = 0.08 * np.sin(23 * u + 5) * np.cos(19 * v + 1)
    depth = np.where(depth > 0, depth + ripple, 0.0)
    depth = np.where(depth < 0.02, 0.0, depth)
    if unmodelled:
        corner_u, corner_v = rng.random() < 0.5, rng.random() < 0.5
        cu = u if corner_u else 1 - u
        cv = v if corner_v else 1 - v
        depth = np.where(cu + cv < uniform(rng, 0.35, 0.55), np.nan, depth)
    return depth


def population_field(rng: random.Random, grid: dict) -> np.ndarray:
    """People per cell: towns on a rural background, NaN over a lake."""
    h, w = grid["height"], grid["width"]
    rows, cols = np.mgrid[0:h, 0:w].astype(float)
    u, v = (cols + 0.5) / w, (rows + 0.5) / h
    people = uniform(rng, 2.0, 12.0) * (1.0 + 0.5 * np.sin(9 * u + 2) * np.cos(7 * v))
    for _ in range(randint(rng, 3, 6)):
        tu, tv, radius = rng.random(), rng.random(), uniform(rng, 0.06, 0.2)
        people = people + uniform(rng, 40.0, 400.0) * np.exp(-((u - tu) ** 2 + (v - tv) ** 2) / radius ** 2)
    noise = np.array([rng.random() for _ in range(h * w)]).reshape(h, w)
    people = people * (0.7 + 0.6 * noise)
    lu, lv, lr = rng.random(), rng.random(), uniform(rng, 0.06, 0.12)
    people = np.where((u - lu) ** 2 + (v - lv) ** 2 < lr ** 2, np.nan, people)
    return people.astype(np.float32).astype(float)


def zone_field(rng: random.Random, grid: dict, ids: list[int]) -> np.ndarray:
    """Voronoi zones with ``ids`` and a border region (0) beyond a random line."""
    h, w = grid["height"], grid["width"]
    rows, cols = np.mgrid[0:h, 0:w].astype(float)
    u, v = (cols + 0.5) / w, (rows + 0.5) / h
    seeds = [(uniform(rng, 0.1, 0.9), uniform(rng, 0.1, 0.9)) for _ in ids]
    dist = np.stack([(u - su) ** 2 + (v - sv) ** 2 for su, sv in seeds])
    zones = np.array(ids, dtype=np.int64)[np.argmin(dist, axis=0)]
    angle = 2 * math.pi * rng.random()
    line = (u - 0.5) * math.cos(angle) + (v - 0.5) * math.sin(angle)
    zones = np.where(line > uniform(rng, 0.3, 0.42), 0, zones)
    return zones


def zone_ids(rng: random.Random, count: int, dtype: str) -> list[int]:
    style = pick(rng, ["small", "admin", "large"]) if dtype == "Int32" else ("small" if dtype == "Byte" else
                                                                             pick(rng, ["small", "admin"]))
    low, high = {"small": (1, 60), "admin": (1001, 9899), "large": (100000, 2100000)}[style]
    ids: list[int] = []
    while len(ids) < count:
        value = randint(rng, low, high)
        if value not in ids:
            ids.append(value)
    return ids


# --------------------------------------------------------------------------------------------- scenes


def _layer(crs: str, grid: dict, values: np.ndarray, **enc) -> dict:
    return {"crs": crs, "gt": tuple(float(g) for g in grid["gt"]), "width": grid["width"], "height": grid["height"],
            "values": values, "enc": enc}


def _location(rng: random.Random, family: str) -> tuple[float, float]:
    if family == "projections" and rng.random() < 0.5:
        return uniform(rng, 40.0, 57.0), uniform(rng, -4.0, 24.0)  # Europe (EPSG:3035 exists here)
    if family == "geographic":
        return pick(rng, [-1, 1]) * uniform(rng, 38.0, 62.0), uniform(rng, -170.0, 170.0)
    return pick(rng, [-1, 1]) * uniform(rng, 3.0, 55.0), uniform(rng, -175.0, 175.0)


def make_scene(rng: random.Random, family: str) -> dict:
    """The plain truth of one scenario of ``family``, with the encoding its files will use."""
    features = _features(rng, family)
    if features.get("antimeridian") == "crossing":
        lat, lon = pick(rng, ANTIMERIDIAN)
        lat, lon = lat + uniform(rng, -0.3, 0.3), lon + uniform(rng, -0.01, 0.01)
    elif features.get("antimeridian") == "0-360":
        lat, lon = pick(rng, [-1, 1]) * uniform(rng, 15.0, 60.0), uniform(rng, -170.0, -10.0)
    elif features.get("state_plane"):
        lat, lon, sp_crs = pick(rng, STATE_PLANE)
        lat, lon = lat + uniform(rng, -0.05, 0.05), lon + uniform(rng, -0.05, 0.05)
        features["state_plane"] = sp_crs
    else:
        lat, lon = _location(rng, family)
    large = family == "large"
    half_x = uniform(rng, 7500, 8500) if large else uniform(rng, 2200, 3200)
    half_y = uniform(rng, 7500, 8500) if large else uniform(rng, 2200, 3200)
    utm = utm_of(lat, lon)
    crs = {"depth": features.get("depth_crs", utm), "pop": features.get("pop_crs", utm),
           "zones": features.get("zones_crs", utm)}
    for role, value in crs.items():
        if value == "state_plane":
            crs[role] = features["state_plane"]
        elif value == "utm":
            crs[role] = utm
        elif value == "utm_neighbour":
            zone = int(utm[-2:])
            zone = zone + 1 if zone < 60 else zone - 1
            crs[role] = utm[:-2] + f"{zone:02d}"
        elif value == "regional":
            crs[role] = "EPSG:3035" if (35 < lat < 70 and -10 < lon < 30) else "ESRI:54009"

    # Coverage: zones (extent) >= depth >= population by default; the edges family breaks it on purpose.
    pop_frac = (0.0, 1.0, 0.0, 1.0)
    depth_frac = (-0.15, 1.15, -0.15, 1.15)
    zone_frac = (-0.35, 1.35, -0.35, 1.35)
    if features.get("edges"):
        side = pick(rng, ["left", "right", "top", "bottom"])
        cut = uniform(rng, 0.2, 0.35)
        depth_frac = {"left": (cut, 1.15, -0.15, 1.15), "right": (-0.15, 1 - cut, -0.15, 1.15),
                      "top": (-0.15, 1.15, -0.15, 1 - cut), "bottom": (-0.15, 1.15, cut, 1.15)}[side]
        other = {"left": "top", "top": "right", "right": "bottom", "bottom": "left"}[side]
        zcut = uniform(rng, 0.15, 0.3)
        zone_frac = {"left": (zcut, 1.35, -0.35, 1.35), "right": (-0.35, 1 - zcut, -0.35, 1.35),
                     "top": (-0.35, 1.35, -0.35, 1 - zcut), "bottom": (-0.35, 1.35, zcut, 1.35)}[other]

    def ring(frac):
        return study_ring(lat, lon, half_x, half_y, frac)

    scene = {"family": family, "lat": lat, "lon": lon, "features": {k: v for k, v in features.items()
                                                                     if isinstance(v, (bool, str, int, float))}}
    # population
    pop_geo = is_geographic(crs["pop"])
    pop_size = (uniform(rng, 0.0008, 0.0013) if pop_geo else uniform(rng, 90.0, 140.0)) * (0.85 if large else 1.0)
    if crs["pop"].startswith("EPSG:22"):
        pop_size /= US_FT
    pop_grid = north_up_grid(rng, bbox_in(crs["pop"], *ring(pop_frac)), pop_size, 0.0,
                             pop_size * (0.75 if pop_geo else 1.0))
    pop_values = population_field(rng, pop_grid)
    pop_enc = dict(features.get("pop_enc", {}))
    scene["population"] = _layer(crs["pop"], pop_grid, pop_values, **pop_enc)
    scene["population"]["kind"] = "density_km2" if pop_enc.get("density") else "count"
    if scene["population"]["kind"] == "density_km2":
        from reference import cell_areas_km2  # the reference's own area, so counts = density * area exactly

        areas = cell_areas_km2(scene["population"])
        density = (pop_values / areas).astype(np.float32).astype(float)
        scene["population"]["values"] = density

    # depth
    depth_geo = is_geographic(crs["depth"])
    depth_size = (uniform(rng, 0.00022, 0.00038) if depth_geo else uniform(rng, 22.0, 38.0)) * (1.6 if large else 1.0)
    if crs["depth"].startswith("EPSG:22"):
        depth_size /= US_FT
    depth_bbox = bbox_in(crs["depth"], *ring(depth_frac))
    if features.get("depth_rotated"):
        depth_grid = rotated_grid(rng, depth_bbox, depth_size, 0.05, pick(rng, [-1, 1]) * uniform(rng, 12, 30))
    else:
        depth_grid = north_up_grid(rng, depth_bbox, depth_size, 0.0, depth_size * (0.8 if depth_geo else 1.0))
    depth_m = depth_field(rng, depth_grid, unmodelled=features.get("unmodelled", True))
    depth_enc = dict(features.get("depth_enc", {}))
    scene["depth"] = _layer(crs["depth"], depth_grid, depth_m, **depth_enc)

    # zones
    zones_geo = is_geographic(crs["zones"])
    zone_size = uniform(rng, 0.0005, 0.0008) if zones_geo else uniform(rng, 45.0, 75.0) * (2.0 if large else 1.0)
    if crs["zones"].startswith("EPSG:22"):
        zone_size /= US_FT
    zone_bbox = bbox_in(crs["zones"], *ring(zone_frac))
    if features.get("zones_rotated"):
        zone_grid = rotated_grid(rng, zone_bbox, zone_size, 0.0, pick(rng, [-1, 1]) * uniform(rng, 15, 35))
    else:
        zone_grid = north_up_grid(rng, zone_bbox, zone_size, 0.0, zone_size * (0.8 if zones_geo else 1.0))
    zone_enc = dict(features.get("zone_enc", {}))
    zone_enc.setdefault("dtype", pick(rng, ["Int32", "UInt16"]))
    ids = zone_ids(rng, randint(rng, 4, 7), zone_enc["dtype"])
    scene["zones"] = _layer(crs["zones"], zone_grid, zone_field(rng, zone_grid, ids), **zone_enc)

    scene["thresholds"] = list(pick(rng, THRESHOLD_SETS))
    scene["subcells"] = randint(rng, 3, 4) if large else randint(rng, 2, 5)
    scene["manifest_defaults"] = (rng.random() < 0.25 and not large)  # omit thresholds/subcells: defaults apply
    if scene["manifest_defaults"]:
        scene["thresholds"], scene["subcells"] = list(DEFAULT_THRESHOLDS), DEFAULT_SUBCELLS
    scene["name"] = f"{family}-{randint(rng, 1000, 9999)}"
    _settle_depth_encoding(rng, scene)
    return scene


def _features(rng: random.Random, family: str) -> dict:
    """What the files of one scenario look like. Every family but clean's and nodata's conventions is one the
    shipped reader gets wrong; clean and nodata keep to one projected CRS, north-up grids and full coverage."""
    f: dict = {"unmodelled": True}
    float_depth = {"dtype": "Float32", "nodata": "declared", "nodata_value": -9999.0}
    f["depth_enc"] = dict(float_depth)
    f["pop_enc"] = {"nodata": "declared", "nodata_value": pick(rng, [-99999.0, -200.0])}
    f["zone_enc"] = {"nodata": pick(rng, ["zero_plain", "zero_declared"])}
    if family == "clean":
        return f
    if family == "large":  # a national-scale run: gridded population, tiled depth, zones in a national CRS
        f["pop_crs"] = pick(rng, ["EPSG:4326", "ESRI:54009"])
        f["zones_crs"] = pick(rng, ["regional", "utm_neighbour"])
        f["depth_enc"]["tiles"] = pick(rng, [(2, 2), (3, 2)])
        f["depth_enc"]["drop_tile"] = False
        f["depth_enc"]["_order_key"] = randint(rng, 0, 10**9)
        return f
    if family == "nodata":
        mode = pick(rng, ["zero", "manifest_pos", "manifest_neg", "nan+pop_manifest"])
        if mode == "zero":
            f["depth_enc"] = {"dtype": "Float32", "nodata": "zero"}
        elif mode == "manifest_pos":
            f["depth_enc"] = {"dtype": "Float32", "nodata": "manifest", "nodata_value": pick(rng, [9999.0, 999.0])}
        elif mode == "manifest_neg":
            f["depth_enc"] = {"dtype": "Float32", "nodata": "manifest", "nodata_value": -32767.0}
        else:
            f["depth_enc"] = {"dtype": "Float32", "nodata": pick(rng, ["nan_declared", "nan_plain"])}
        if mode == "nan+pop_manifest" or rng.random() < 0.5:
            f["pop_enc"] = {"nodata": "manifest", "nodata_value": pick(rng, [-99999.0, -3.4028234663852886e38])}
        if rng.random() < 0.5:
            f["zone_enc"] = {"nodata": "declared", "nodata_value": 255, "dtype": "Byte"}
        return f
    if family == "packed":
        f["depth_enc"] = pick(rng, [
            {"dtype": "Int16", "nodata": "declared", "nodata_value": -32768, "scale": 0.01, "where": "file"},
            {"dtype": "UInt16", "nodata": "declared", "nodata_value": 65535, "scale": 0.001, "where": "file"},
            {"dtype": "Int16", "nodata": "declared", "nodata_value": -9999, "unit": "cm", "where": "file"},
            {"dtype": "UInt16", "nodata": "declared", "nodata_value": 65535, "scale": 0.01, "where": "manifest"},
            {"dtype": "Int16", "nodata": "manifest", "nodata_value": -32768, "unit": "mm", "where": "manifest"},
        ])
        return f
    if family == "orientation":
        kinds = pick(rng, [("pop_south",), ("depth_south",), ("zones_rotated",), ("pop_south", "zones_rotated"),
                           ("depth_rotated",), ("depth_south", "zones_rotated")])
        f["pop_enc"]["south_up"] = "pop_south" in kinds
        f["depth_enc"]["south_up"] = "depth_south" in kinds
        f["zones_rotated"] = "zones_rotated" in kinds
        f["depth_rotated"] = "depth_rotated" in kinds
        return f
    if family == "edges":
        f["edges"] = True
        return f
    if family == "projections":
        f["pop_crs"] = pick(rng, ["ESRI:54009", "EPSG:3857", "utm_neighbour"])
        f["zones_crs"] = pick(rng, ["regional", "ESRI:54009", "utm_neighbour"])
        if f["zones_crs"] == f["pop_crs"] == "utm_neighbour":
            f["zones_crs"] = "regional"
        if rng.random() < 0.4:
            f["zone_enc"]["crs_in"] = "manifest"
        return f
    if family == "geographic":
        f["depth_crs"] = "EPSG:4326"
        f["pop_crs"] = pick(rng, ["EPSG:4326", "utm", "ESRI:54009"])
        f["zones_crs"] = pick(rng, ["utm", "EPSG:4326"])
        return f
    if family == "antimeridian":
        f["antimeridian"] = pick(rng, ["crossing", "crossing", "0-360"])
        f["depth_crs"] = "EPSG:4326"
        f["pop_crs"] = pick(rng, ["EPSG:4326", "utm"])
        f["zones_crs"] = pick(rng, ["utm", "EPSG:4326"])
        f["depth_enc"]["lon"] = pick(rng, ["0-360", "east"])
        f["pop_enc"]["lon"] = pick(rng, ["0-360", "east", "west"])
        f["zone_enc"]["lon"] = pick(rng, ["0-360", "west"])
        return f
    if family == "mosaic":
        f["depth_enc"]["tiles"] = pick(rng, [(2, 2), (3, 1), (1, 3), (2, 3), (3, 2)])
        f["depth_enc"]["drop_tile"] = rng.random() < 0.6
        f["depth_enc"]["_drop_index"] = randint(rng, 0, 5)
        f["depth_enc"]["_order_key"] = randint(rng, 0, 10**9)
        return f
    if family == "density_units":
        f["state_plane"] = True
        f["depth_crs"] = "state_plane"
        f["pop_crs"] = pick(rng, ["EPSG:4326", "EPSG:5070", "utm"])
        f["zones_crs"] = pick(rng, ["EPSG:5070", "utm", "state_plane"])
        f["pop_enc"]["density"] = True
        f["depth_enc"]["unit"] = pick(rng, ["ft", "US survey foot", "m"])
        f["depth_enc"]["where"] = "file"
        return f
    if family == "everything":
        return _everything(rng, f)
    raise KeyError(family)


def _everything(rng: random.Random, f: dict) -> dict:
    """Three to six of the other families' conventions at once (at least one the shipped reader gets wrong)."""
    options = ["packed", "pop_south", "zones_rotated", "edges", "pop_moll", "zones_regional", "geographic",
               "mosaic", "density", "nodata_zero", "nodata_manifest", "vrt"]
    chosen = shuffled(rng, options)[:randint(rng, 3, 6)]
    if set(chosen) <= {"nodata_zero", "nodata_manifest", "vrt"}:
        chosen.append("packed")
    if "geographic" in chosen:
        f["depth_crs"] = "EPSG:4326"
    if "pop_moll" in chosen:
        f["pop_crs"] = "ESRI:54009"
    if "zones_regional" in chosen:
        f["zones_crs"] = "regional"
    if "packed" in chosen:
        f["depth_enc"] = {"dtype": "Int16", "nodata": "declared", "nodata_value": -32768, "scale": 0.01,
                          "where": pick(rng, ["file", "manifest"])}
    elif "nodata_zero" in chosen:
        f["depth_enc"] = {"dtype": "Float32", "nodata": "zero"}
    elif "nodata_manifest" in chosen:
        f["depth_enc"] = {"dtype": "Float32", "nodata": "manifest", "nodata_value": 9999.0}
    f["pop_enc"]["south_up"] = "pop_south" in chosen
    f["zones_rotated"] = "zones_rotated" in chosen and "geographic" not in chosen
    f["edges"] = "edges" in chosen
    if "mosaic" in chosen or "vrt" in chosen:
        f["depth_enc"]["tiles"] = pick(rng, [(2, 2), (3, 1), (2, 3)])
        f["depth_enc"]["drop_tile"] = rng.random() < 0.5
        f["depth_enc"]["vrt"] = "vrt" in chosen and "mosaic" not in chosen
        f["depth_enc"]["_drop_index"] = randint(rng, 0, 5)
        f["depth_enc"]["_order_key"] = randint(rng, 0, 10**9)
    f["pop_enc"]["density"] = "density" in chosen
    return f


def _settle_depth_encoding(rng: random.Random, scene: dict) -> None:
    """Turn the depth field into the stored raw numbers, and the truth into exactly what they decode to. Depths
    within 4 mm of a threshold are moved off it, so no comparison is ever decided by rounding."""
    layer = scene["depth"]
    enc = layer["enc"]
    factor = {"ft": FT, "US survey foot": US_FT, "cm": 0.01, "mm": 0.001, "m": 1.0, None: 1.0}[enc.get("unit")]
    scale = enc.get("scale") or 1.0
    step = scale * factor  # metres per raw unit
    metres = layer["values"]
    nodata = np.isnan(metres)
    if enc["dtype"] == "Float32":
        raw = (np.nan_to_num(metres) / factor).astype(np.float32)
        bump = np.float32(0.011 / factor)
    else:
        raw = np.round(np.nan_to_num(metres) / step)
        raw = np.clip(raw, 0, 30000).astype(NP[enc["dtype"]])
        bump = 1 if step >= 0.004 else int(math.ceil(0.006 / step))
    for _ in range(6):
        truth = raw.astype(float) * scale * factor
        near = np.zeros(raw.shape, bool)
        for t in scene["thresholds"]:
            near |= np.abs(truth - t) < 0.004
        near &= ~nodata
        if not near.any():
            break
        raw = np.where(near, raw + bump, raw).astype(raw.dtype)
    truth = raw.astype(float) * scale * factor
    truth = np.where(nodata, np.nan, truth)
    dropped = dropped_window(layer)
    if dropped is not None:  # a tile that was never delivered: no data under it
        r0, r1, c0, c1 = dropped
        if enc.get("south_up"):
            r0, r1 = layer["height"] - r1, layer["height"] - r0
        truth[r0:r1, c0:c1] = np.nan
    if enc["nodata"] == "zero":
        truth = np.where(raw == 0, np.nan, truth)  # every stored 0 is no data: dry land too
    layer["raw"] = raw
    layer["values"] = truth


def tile_windows(layer: dict) -> list[tuple[int, int, int, int]]:
    """(row0, row1, col0, col1) of every tile in the stored array, row by row."""
    nx, ny = layer["enc"]["tiles"]
    h, w = layer["height"], layer["width"]
    xs = [round(w * i / nx) for i in range(nx + 1)]
    ys = [round(h * j / ny) for j in range(ny + 1)]
    return [(ys[j], ys[j + 1], xs[i], xs[i + 1]) for j in range(ny) for i in range(nx)]


def dropped_window(layer: dict) -> tuple[int, int, int, int] | None:
    enc = layer["enc"]
    if not enc.get("tiles") or not enc.get("drop_tile"):
        return None
    windows = tile_windows(layer)
    return windows[int(enc.get("_drop_index", 0)) % len(windows)]


# --------------------------------------------------------------------------------------------- writing


def _write_tif(path: Path, raw: np.ndarray, gt, crs: str | None, dtype: str, nodata=None, scale=None,
               unit=None) -> None:
    ds = GTIFF.Create(str(path), raw.shape[1], raw.shape[0], 1, GDT[dtype], options=["COMPRESS=DEFLATE"])
    ds.SetGeoTransform(tuple(float(g) for g in gt))
    if crs is not None:
        ds.SetSpatialRef(srs_of(crs))
    band = ds.GetRasterBand(1)
    if nodata is not None:
        band.SetNoDataValue(float(nodata))
    if scale is not None:
        band.SetScale(float(scale))
        band.SetOffset(0.0)
    if unit is not None:
        band.SetUnitType(unit)
    band.WriteArray(raw.astype(NP[dtype]))
    ds.FlushCache()
    ds = None
    path.chmod(0o644)


def _stored_grid(layer: dict, raw: np.ndarray) -> tuple[tuple, np.ndarray]:
    """The geotransform and rows as written: flipped for south-up files, shifted by 360 degrees on request."""
    gt = list(layer["gt"])
    enc = layer["enc"]
    if enc.get("south_up"):
        assert gt[2] == 0 and gt[4] == 0
        gt[3] = gt[3] + gt[5] * layer["height"]
        gt[5] = -gt[5]
        raw = raw[::-1]
    lon = enc.get("lon") if is_geographic(layer["crs"]) else None
    if lon == "0-360" and gt[0] < 0:
        gt[0] += 360.0
    elif lon == "east" and gt[0] < 0:  # a grid crossing 180 degrees written with its west edge east of 0
        gt[0] += 360.0
    elif lon == "west" and gt[0] > 0:
        gt[0] -= 360.0
    return tuple(gt), raw


def _crs_for_file(layer: dict) -> str | None:
    return None if layer["enc"].get("crs_in") == "manifest" else layer["crs"]


def write_scene(scene: dict, directory: Path) -> Path:
    """Write the scenario's files and manifest into ``directory``; returns the manifest's path."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o755)
    manifest: dict = {"name": scene["name"]}
    if not scene["manifest_defaults"]:
        manifest["thresholds_m"] = scene["thresholds"]
        manifest["subcells"] = scene["subcells"]
    manifest["depth"] = _write_depth(scene["depth"], directory)
    manifest["population"] = _write_population(scene["population"], directory)
    manifest["zones"] = _write_zones(scene["zones"], directory)
    path = directory / "scenario.json"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    path.chmod(0o644)
    return path


def _write_depth(layer: dict, directory: Path) -> dict:
    enc = layer["enc"]
    entry: dict = {}
    raw = layer["raw"]
    nodata_raw = layer["values"]
    nodata_mask = np.isnan(nodata_raw)
    mode = enc["nodata"]
    file_nodata = None
    if mode in ("declared", "manifest"):
        raw = np.where(nodata_mask, enc["nodata_value"], raw).astype(raw.dtype)
        if mode == "declared":
            file_nodata = enc["nodata_value"]
        else:
            entry["nodata"] = enc["nodata_value"]
    elif mode in ("nan_declared", "nan_plain"):
        raw = np.where(nodata_mask, np.nan, raw).astype(np.float32)
        file_nodata = float("nan") if mode == "nan_declared" else None
    elif mode == "zero":
        raw = np.where(nodata_mask, 0, raw).astype(raw.dtype)
        file_nodata = 0.0
    scale = enc.get("scale")
    unit = enc.get("unit")
    file_scale = file_unit = None
    if enc.get("where", "file") == "file":
        file_scale, file_unit = scale, unit
    else:
        if scale is not None:
            entry["scale"] = scale
        if unit is not None:
            entry["unit"] = unit
    gt, stored = _stored_grid(layer, raw)
    crs = _crs_for_file(layer)
    if crs is None:
        entry["crs"] = layer["crs"]
    tiles = enc.get("tiles")
    if not tiles:
        name = "flood_depth.tif"
        _write_tif(directory / name, stored, gt, crs, enc["dtype"], file_nodata, file_scale, file_unit)
        entry["path"] = name
        return entry
    names = []
    dropped = dropped_window(layer)
    for r0, r1, c0, c1 in tile_windows(layer):
        if (r0, r1, c0, c1) == dropped:
            continue
        tgt = (gt[0] + c0 * gt[1] + r0 * gt[2], gt[1], gt[2], gt[3] + c0 * gt[4] + r0 * gt[5], gt[4], gt[5])
        name = f"depth_{len(names) + 1:02d}.tif"
        _write_tif(directory / name, stored[r0:r1, c0:c1], tgt, crs, enc["dtype"], file_nodata, file_scale,
                   file_unit)
        names.append(name)
    names = shuffled(random.Random(enc.get("_order_key", 0)), names)
    if enc.get("vrt"):
        # Gaps (a missing tile) are filled with the nodata value, as a provider's gdalbuildvrt -vrtnodata does.
        fill = {"declared": enc.get("nodata_value"), "manifest": enc.get("nodata_value"), "zero": 0,
                "nan_declared": "nan", "nan_plain": "nan"}[mode]
        vrt = gdal.BuildVRT(str(directory / "flood_depth.vrt"), [str(directory / n) for n in names],
                            VRTNodata=fill)
        if file_unit is not None:
            vrt.GetRasterBand(1).SetUnitType(file_unit)
        vrt.FlushCache()
        vrt = None
        (directory / "flood_depth.vrt").chmod(0o644)
        entry["path"] = "flood_depth.vrt"
    else:
        entry["tiles"] = names
    return entry


def _write_population(layer: dict, directory: Path) -> dict:
    enc = layer["enc"]
    entry: dict = {}
    values = layer["values"]
    mode = enc.get("nodata", "declared")
    raw = np.where(np.isnan(values), enc.get("nodata_value", np.nan), values).astype(np.float32)
    file_nodata = enc.get("nodata_value") if mode == "declared" else None
    if mode == "manifest":
        entry["nodata"] = enc["nodata_value"]
    gt, stored = _stored_grid(layer, raw)
    crs = _crs_for_file(layer)
    if crs is None:
        entry["crs"] = layer["crs"]
    name = "population_density.tif" if layer["kind"] == "density_km2" else "population.tif"
    _write_tif(directory / name, stored, gt, crs, "Float32", file_nodata)
    entry = {"path": name, "kind": layer["kind"], **entry}
    return entry


def _write_zones(layer: dict, directory: Path) -> dict:
    enc = layer["enc"]
    entry: dict = {}
    values = layer["values"]
    mode = enc.get("nodata", "zero_plain")
    file_nodata = None
    raw = values
    if mode == "declared":
        raw = np.where(values == 0, enc["nodata_value"], values)
        file_nodata = enc["nodata_value"]
    elif mode == "zero_declared":
        file_nodata = 0
    gt, stored = _stored_grid(layer, raw)
    crs = _crs_for_file(layer)
    if crs is None:
        entry["crs"] = layer["crs"]
    _write_tif(directory / "zones.tif", stored, gt, crs, enc["dtype"], file_nodata)
    return {"path": "zones.tif", **entry}


# --------------------------------------------------------------------------------------------- public examples

PUBLIC_SEED = 40417
PUBLIC_CASES = [("riverside_utm", "clean"), ("upland_geographic", "geographic"), ("delta_packed", "packed")]


def public_scene(index: int) -> dict:
    stem, family = PUBLIC_CASES[index]
    scene = make_scene(random.Random(PUBLIC_SEED + index), family)
    scene["name"] = stem
    return scene


def main(out: str) -> None:
    """Write the public examples with their expected reports (run by the task author, not in the image)."""
    from reference import report

    for index, (stem, _family) in enumerate(PUBLIC_CASES):
        scene = public_scene(index)
        target = Path(out) / stem
        write_scene(scene, target)
        (target / "expected.json").write_text(json.dumps(report(scene), indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
