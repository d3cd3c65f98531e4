# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke test: every examples/*.cmds batch must print exactly its examples/*.out (recorded with invctl 3.2.0 on
ledgerlib 1.4.2).  Run from /app:  python3 -m pytest -q tests"""

import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((APP / "examples").glob("*.cmds"))


@pytest.mark.parametrize("cmds", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(cmds, tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "invctl", "--data", str(tmp_path / "data"), "batch", str(cmds)],
        cwd=APP, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == cmds.with_suffix(".out").read_text(encoding="utf-8")
