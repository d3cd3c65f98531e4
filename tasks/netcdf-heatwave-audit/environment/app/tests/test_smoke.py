# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke tests of hwaudit (python3 -m pytest -q /app/tests). They cover the easy paths only."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hwaudit.cfdates import decode_days  # noqa: E402
from hwaudit.config import Region  # noqa: E402
from hwaudit.grid import regional_mean  # noqa: E402
from hwaudit.spells import find_spells  # noqa: E402

APP = Path(__file__).resolve().parents[1]
EXAMPLES = APP / "examples"


def test_decode_days_standard():
    assert decode_days(np.array([0.0, 1.0, 31.0]), "days since 2001-01-01", "standard") == [
        (2001, 1, 1), (2001, 1, 2), (2001, 2, 1)]


def test_spells_simple():
    hot = np.array([0, 1, 1, 1, 1, 0, 1, 1, 0], dtype=bool)
    assert find_spells(hot, 3) == [(1, 4)]


def test_regional_mean_constant_field():
    lat = np.array([-45.0, -15.0, 15.0, 45.0])
    lon = np.array([-135.0, -45.0, 45.0, 135.0])
    field = np.full((2, 4, 4), 12.5)
    out = regional_mean(field, lat, lon, Region("r", -50, 50, -100, 100))
    assert np.allclose(out, 12.5)


@pytest.mark.parametrize("name", ["example_standard"])
def test_example_report(tmp_path, name):
    out = tmp_path / "report.json"
    subprocess.run([sys.executable, str(APP / "heatwave.py"), str(EXAMPLES / name / "data"),
                    "--regions", str(EXAMPLES / name / "regions.json"), "--out", str(out)], check=True)
    got = json.loads(out.read_text())["regions"]
    want = json.loads((EXAMPLES / name / "expected.json").read_text())["regions"]
    assert set(got) == set(want)
