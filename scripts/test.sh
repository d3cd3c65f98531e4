#!/usr/bin/env bash
# The test suite. `scripts/test.sh` runs everything (unit + Docker integration + lint + types);
# `scripts/test.sh --quick` runs only the fast offline unit tests. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi

if [ "$quick" = 1 ]; then
  [ -x .venv/bin/pytest ] || bash scripts/setup.sh
  exec .venv/bin/pytest tests/unit -q "$@"
fi

bash scripts/setup.sh
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
.venv/bin/pytest tests -q "$@"
