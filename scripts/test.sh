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
bash scripts/harbor-venv.sh  # stock Harbor for the cross-checks (tests skip them only if Python 3.12 is absent)
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/mypy
.venv/bin/pytest tests -q "$@"
# Task QA, held to the committed lock (tasks/qa-lock.json, docs/authoring.md): the sample tasks with every gate
# (seeds, load, inputs, shortcuts included) and the full exploit audit, which covers the harness; the long-horizon
# tasks with the basic gates and the task-specific audit classes (3, 5, 8, 11, 13, 14: those whose outcome depends
# on the task's own verifier and files), on the tasks whose entry is stale (a stale QA entry fails: refresh the
# lock with --update-lock; an unrecorded audit is run) and two rotating others. `lhtb tasks check tasks` runs
# everything.
if [ "${LHTB_SKIP_TASKS_CHECK:-0}" != 1 ]; then
  mkdir -p build
  lock=tasks/qa-lock.json
  .venv/bin/lhtb tasks check tasks/sample-* -n 2 --no-audit --lock "$lock" --report build/qa-samples-report.json
  others=()
  for task in tasks/*/; do [[ "$(basename "$task")" == sample-* ]] || others+=("$task"); done
  .venv/bin/lhtb tasks check "${others[@]}" -n 2 --no-audit --basic --lock "$lock" --rotate 2 \
    --report build/qa-report.json
  .venv/bin/lhtb tasks audit tasks/sample-* -n 2 --report build/audit-report.json
  .venv/bin/lhtb tasks audit "${others[@]}" --task-specific -n 2 --lock "$lock" --rotate 2 \
    --report build/audit-tasks-report.json
fi
