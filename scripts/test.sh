#!/usr/bin/env bash
# The test suite. `scripts/test.sh` runs everything: lint, types, unit and Docker integration tests (the local-LLM
# end-to-end included), then `lhtb tasks check` on every bundled task (skip it with LHTB_SKIP_TASKS_CHECK=1).
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
# Every QA gate on every bundled task (oracle = 1.0, nop, baseline band, determinism, leaks, integrity audit).
if [ "${LHTB_SKIP_TASKS_CHECK:-0}" != 1 ]; then
  mkdir -p build
  .venv/bin/lhtb tasks check tasks -n 2 --report build/qa-report.json
fi
