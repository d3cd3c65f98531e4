#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold: a complete version-3 exporter (HMAC login, cursor paging, every value type, busy retries, reconnect and
# resume, per-piece adler32 checks with refetch).
set -euo pipefail
cp "$(dirname "$0")/client.py" /app/client.py
