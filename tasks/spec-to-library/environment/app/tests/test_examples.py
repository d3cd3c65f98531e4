# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Public smoke test: the examples in examples/ (batch mode) and one CLI call.  Run in /app: python3 -m pytest -q tests"""

import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parent.parent


def test_batch_examples():
    result = subprocess.run([sys.executable, "-m", "recur", "--batch", "examples/cases.tsv"], cwd=APP,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    got = result.stdout.splitlines()
    want = (APP / "examples/expected.txt").read_text().splitlines()
    assert got == want


def test_cli():
    result = subprocess.run([sys.executable, "-m", "recur", "FREQ=DAILY;COUNT=2", "2024-01-30T09:00:00", "5"],
                            cwd=APP, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout == "2024-01-30T09:00:00\n2024-01-31T09:00:00\n"


def test_cli_error():
    result = subprocess.run([sys.executable, "-m", "recur", "FREQ=DAILY;COUNT=2;UNTIL=20240105", "2024-01-30", "5"],
                            cwd=APP, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
