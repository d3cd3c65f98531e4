#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: replace the defective modules of floodexp. Nodata from the manifest or the band (0 included),
# compared in stored units; scale/offset and depth units; SRSs in traditional GIS axis order, manifest CRS
# overrides; the full affine geotransform both ways with floor and no edge clipping; longitudes wrapped for
# geographic grids; spherical cell areas and linear units; every depth tile; densities to counts; zones looked
# up in their own CRS; the manifest's thresholds; zone ids as string keys; everything vectorised with NumPy.
set -euo pipefail
cp /solution/floodexp/*.py /app/floodexp/
cd /app
python3 flood_exposure.py examples/riverside_utm/scenario.json --format table
python3 -m pytest -q /app/tests
