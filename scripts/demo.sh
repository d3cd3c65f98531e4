#!/usr/bin/env bash
# The main job: set up, then evaluate the oracle and nop agents on the bundled tasks and print a leaderboard.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/lhtb run -p tasks -a oracle -a nop -n 2 -o jobs "$@"
