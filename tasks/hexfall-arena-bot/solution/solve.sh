#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: a C model of the rules learned by play (gravity drops, hazards that blow up with their
# orthogonal neighbours, flanking in eight directions that wraps across the side edges, flips times lines,
# illegal moves cost a point, stones count at the end) and a five-ply alpha-beta search over it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
gcc -O2 -o /app/bot "$here/bot.c" -I"$here"
chmod 755 /app/bot
