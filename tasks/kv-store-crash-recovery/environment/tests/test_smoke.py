# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke test: the public example (run from /app: python3 -m pytest -q tests)."""

import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent


def test_basic_example(tmp_path):
    run = subprocess.run([sys.executable, "-m", "kvstore", str(tmp_path / "data"), str(APP / "examples/basic.txt")],
                         capture_output=True, text=True, cwd=APP, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout == (APP / "examples/basic.out").read_text()
