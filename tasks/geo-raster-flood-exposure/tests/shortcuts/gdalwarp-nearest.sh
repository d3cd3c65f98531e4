#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: delegates the geometry to GDAL's warper: depth and zones are warped (nearest) onto the population grid and counted per population cell, flooded area from zones warped onto the depth grid; no sub-cells, GDAL's own nodata/scale handling, no tiles.
set -euo pipefail
cat > /app/flood_exposure.py <<'PY'
import json, math, pathlib, sys

import numpy as np
from osgeo import gdal, osr

gdal.UseExceptions()
path = pathlib.Path(sys.argv[1])
m = json.loads(path.read_text())
base = path.parent
thresholds = m.get("thresholds_m", [0.15, 0.5, 1.5])


def layer_path(entry):
    return str(base / (entry["path"] if "path" in entry else entry["tiles"][0]))


def warp_onto(src, like, nodata):
    """Band 1 of ``src`` resampled (nearest) onto the grid of ``like``, stored values, ``nodata`` outside."""
    ds = gdal.Open(like)
    gt, w, h = ds.GetGeoTransform(), ds.RasterXSize, ds.RasterYSize
    ys = sorted([gt[3], gt[3] + gt[5] * h])
    out = gdal.Warp("", src, format="MEM", dstSRS=ds.GetProjection(), width=w, height=h, resampleAlg="near",
                    dstNodata=nodata, outputBounds=(gt[0], ys[0], gt[0] + gt[1] * w, ys[1]))
    arr = out.GetRasterBand(1).ReadAsArray().astype(float)
    return arr[::-1] if gt[5] > 0 else arr


def decoded(path_str, entry):
    ds = gdal.Open(path_str)
    band = ds.GetRasterBand(1)
    arr = band.ReadAsArray().astype(float)
    nd = entry.get("nodata", band.GetNoDataValue())
    if nd is not None:
        arr[arr == nd] = np.nan
    return arr * (band.GetScale() or 1.0)


pop_path, depth_path, zone_path = layer_path(m["population"]), layer_path(m["depth"]), layer_path(m["zones"])
pop = decoded(pop_path, m["population"])
pop = np.where(np.isfinite(pop), pop, 0.0)
depth_ds = gdal.Open(depth_path)
scale = depth_ds.GetRasterBand(1).GetScale() or 1.0
depth = warp_onto(depth_path, pop_path, -99999.0)
depth = np.where(depth == -99999.0, np.nan, depth * scale)
zones = warp_onto(zone_path, pop_path, 0)
zone_ds = gdal.Open(zone_path)
zone_band = zone_ds.GetRasterBand(1)
zone_values = zone_band.ReadAsArray()
zid = [int(v) for v in np.unique(zone_values) if v > 0 and v != zone_band.GetNoDataValue()]
# flooded area: zones onto the depth grid
ddec = decoded(depth_path, m["depth"])
zd = warp_onto(zone_path, depth_path, 0)
dgt = depth_ds.GetGeoTransform()
area = abs(dgt[1] * dgt[5]) / 1e6
out = {}
for z in zid:
    inz = zones == z
    pz = pop[inz]
    dz = depth[inz]
    dd = ddec[zd == z]
    out[str(z)] = {"population": float(pz.sum()), "unassessed": float(pz[np.isnan(dz)].sum()),
                   "exposed": [float(pz[dz >= t].sum()) for t in thresholds],
                   "flooded_km2": float((dd > 0).sum() * area),
                   "max_depth_m": float(np.nanmax(dd)) if np.isfinite(dd).any() else None}
print(json.dumps({"scenario": m.get("name"), "population_total": float(pop.sum()), "zones": out}))
PY
