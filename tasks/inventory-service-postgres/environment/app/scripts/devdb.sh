#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Start a throwaway PostgreSQL 15 cluster for development: Unix socket only, role "app", database
# "inventory". Usage: scripts/devdb.sh [DIR]   (default /tmp/devdb); stop with scripts/devdb.sh stop [DIR].
set -euo pipefail
BIN=/usr/lib/postgresql/15/bin
if [ "${1:-}" = "stop" ]; then
    DIR=${2:-/tmp/devdb}
    runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -m fast stop
    exit 0
fi
DIR=${1:-/tmp/devdb}
mkdir -p "$DIR/data" "$DIR/sock"
chown -R postgres:postgres "$DIR"
chmod 755 "$DIR" "$DIR/sock"
if [ ! -f "$DIR/data/PG_VERSION" ]; then
    runuser -u postgres -- "$BIN/initdb" -D "$DIR/data" -U postgres -A trust --no-sync >/dev/null
    cat >> "$DIR/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$DIR/sock'
fsync = off
max_connections = 120
CONF
fi
runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w start >/dev/null
psql -h "$DIR/sock" -U postgres -qc "CREATE ROLE app LOGIN" 2>/dev/null || true
psql -h "$DIR/sock" -U postgres -qc "CREATE DATABASE inventory OWNER app" 2>/dev/null || true
echo "host=$DIR/sock dbname=inventory user=app"
