#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: the quick fixes a first reader makes. Zone ids become JSON keys (the report no longer crashes),
# the manifest's thresholds are used, and nodata is read properly (a declared 0 is kept, the manifest's value
# wins). Scale/offset/units, CRS axis order and zone CRS, south-up and turned grids, edges, longitudes, pixel
# areas, tiles, densities and the per-point loop stay as shipped.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path

p = Path("floodexp/exposure.py")
s = p.read_text()
s = s.replace("    thresholds = list(DEFAULT_THRESHOLDS_M)\n", "    thresholds = list(scenario.thresholds)\n")
s = s.replace('"zones": {zone_id: s.as_dict()', '"zones": {str(int(zone_id)): s.as_dict()')
p.write_text(s)

p = Path("floodexp/rasters.py")
s = p.read_text()
s = s.replace("    nodata = band.GetNoDataValue() or DEFAULT_NODATA\n    values[values == nodata] = np.nan\n",
              "    nodata = spec.nodata if spec.nodata is not None else band.GetNoDataValue()\n"
              "    if nodata is not None:\n"
              "        values[values == nodata] = np.nan\n")
p.write_text(s)
PY
python3 flood_exposure.py examples/riverside_utm/scenario.json --format table
