# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The sample feed gives the expected outputs (run from /app: python3 -m unittest discover -s tests)."""
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

APP = Path(__file__).resolve().parent.parent


class SampleFeed(unittest.TestCase):
    def test_sample_outputs(self):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run([sys.executable, "-m", "labfeed", str(APP / "samples" / "feed"), out], cwd=APP, check=True)
            for name in ("results.csv", "alerts.csv"):
                with self.subTest(name=name):
                    got = (Path(out) / name).read_text().replace("\r\n", "\n").splitlines()
                    want = (APP / "samples" / "expected" / name).read_text().splitlines()
                    self.assertEqual(got, want)
            got = json.loads((Path(out) / "summary.json").read_text())
            want = json.loads((APP / "samples" / "expected" / "summary.json").read_text())
            self.assertEqual(got, want)


if __name__ == "__main__":
    unittest.main()
