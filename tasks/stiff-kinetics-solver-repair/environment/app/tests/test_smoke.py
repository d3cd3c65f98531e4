# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Public smoke tests: python3 -m pytest -q /app/tests"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

APP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(APP))

from kinetics.mechanism import parse_side  # noqa: E402
from kinetics.units import rate_constant_to_internal  # noqa: E402

EXAMPLES = sorted((APP / "examples").glob("*.yaml"))


def test_parse_simple_side():
    assert parse_side("A + B") == {"A": 1.0, "B": 1.0}


def test_first_order_rate_constant_in_minutes():
    assert rate_constant_to_internal(6.0, 1, "mol/L", "min") == pytest.approx(0.1)


@pytest.mark.parametrize("mech", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_runs_and_conserves(mech):
    cond = mech.with_name(mech.stem + ".conditions.json")
    run = subprocess.run([sys.executable, str(APP / "kinetics" / "cli.py"), str(mech), str(cond)],
                         capture_output=True, text=True, check=True)
    result = json.loads(run.stdout)
    conditions = json.loads(cond.read_text())
    assert result["times"] == conditions["times"]
    conc = np.array([result["concentrations"][s] for s in result["species"]])
    assert np.all(np.isfinite(conc))
    assert result["stats"]["nfev"] > 0
