#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: fix the three bugs in /app/logparse/parser.py in place.
set -euo pipefail
cd /app
file=logparse/parser.py

fix() {  # fix <fixed string> <sed expression>: apply the edit and prove it landed
    sed -i "$2" "$file"
    grep -qF -- "$1" "$file" || { echo "fix did not apply: $1" >&2; exit 1; }
}

# 1. The file was read as bytes, so every non-blank line crashed on str comparisons.
fix 'open(path, encoding="utf-8")' 's/open(path, "rb")/open(path, encoding="utf-8")/'
# 2. A message may itself contain "|": split off the first four fields only.
fix 'line.split("|", 4)' 's/line\.split("|")/line.split("|", 4)/'
# 3. Levels are case-insensitive: normalise before validating.
fix 'level = level.upper()' 's/^    if level not in LEVELS:$/    level = level.upper()\n    if level not in LEVELS:/'
fix 'Entry(timestamp, level, service' 's/Entry(timestamp, level\.upper(), service/Entry(timestamp, level, service/'

python3 -m logparse examples/tricky.log > /dev/null
