# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Smoke tests: the public example clips against /app/examples/expected.json."""

import json
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[1]
EXAMPLES = APP / "examples"


def test_examples(tmp_path):
    expected = json.loads((EXAMPLES / "expected.json").read_text())
    clips = sorted(str(p) for p in (EXAMPLES / "clips").iterdir())
    out = tmp_path / "report.json"
    subprocess.run([sys.executable, str(APP / "avsync.py"), *clips, "--out", str(out),
                    "--tolerance-ms", str(expected["tolerance_ms"])], check=True)
    got = json.loads(out.read_text())["clips"]
    for name, want in expected["clips"].items():
        entry = got[name]
        assert entry["events"] == want["events"], name
        assert entry["dropped_frames"] == want["dropped_frames"], name
        assert entry["duplicated_frames"] == want["duplicated_frames"], name
        assert entry["in_sync"] == want["in_sync"], name
        assert abs(entry["offset_ms"] - want["offset_ms"]) <= 3.0, name
        assert abs(entry["drift_ppm"] - want["drift_ppm"]) <= 250.0, name
