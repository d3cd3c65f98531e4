#!/usr/bin/env bash
# Idempotent set-up on a fresh Debian 12 machine (as root): Docker engine, debootstrap, Chromium, the Python venv with
# lhtb, and the offline base images. With everything already present it changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

need_apt=()
command -v dockerd >/dev/null 2>&1 || need_apt+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need_apt+=(debootstrap)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)  # the fake environment of the unit tests
[ -x /usr/bin/chromium ] || need_apt+=(chromium)  # the viewer's browser tests (Playwright drives it)
python3 -m venv --help >/dev/null 2>&1 || need_apt+=(python3-venv)
if ((${#need_apt[@]})); then
  log "installing Debian packages: ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  log "starting dockerd (log: /var/log/lhtb-dockerd.log)"
  nohup dockerd >/var/log/lhtb-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start; see /var/log/lhtb-dockerd.log" >&2; exit 1; }
fi

if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  python3 -m venv .venv
fi
stamp=.venv/.lhtb-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  log "installing lhtb and its test tools into .venv"
  .venv/bin/pip install -q --disable-pip-version-check -e '.[dev]'
  touch "$stamp"
fi

.venv/bin/lhtb images bootstrap
