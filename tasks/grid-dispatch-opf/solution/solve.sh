#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: replace the buggy gridopt modules by fixed ones (susceptance 1/x, slack row removed from the
# injections, limits in both directions, incremental piecewise slopes, ratings in per unit, out-of-service
# units dropped, one angle reference and one power balance per island) and add the dispatch.py entry point.
set -euo pipefail
cp /solution/gridopt/*.py /app/gridopt/
cp /solution/dispatch.py /app/dispatch.py
cd /app
for name in case_a case_b; do python3 dispatch.py examples/$name.json /tmp/$name.out.json; done
