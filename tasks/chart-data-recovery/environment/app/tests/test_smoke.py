# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Public smoke tests: python3 -m pytest -q /app/tests"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(APP))

from digitizer.compare import compare  # noqa: E402
from digitizer.meta import load_meta, parse_color  # noqa: E402

EXAMPLES = sorted(p for p in (APP / "examples").glob("*.json") if not p.name.endswith(".expected.json"))


def test_parse_hex_color():
    assert parse_color("#1f77b4") == (31, 119, 180)


@pytest.mark.parametrize("meta_path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example(meta_path):
    png = meta_path.with_suffix(".png")
    expected = json.loads(meta_path.with_name(meta_path.stem + ".expected.json").read_text())
    run = subprocess.run([sys.executable, str(APP / "digitize.py"), str(png), str(meta_path)],
                         capture_output=True, text=True, check=True)
    actual = json.loads(run.stdout)
    meta = json.loads(meta_path.read_text())
    load_meta(meta_path)
    for name, errors in compare(meta, expected, actual):
        assert max(errors) <= 0.01, f"{name}: worst error {max(errors):.4f}"
