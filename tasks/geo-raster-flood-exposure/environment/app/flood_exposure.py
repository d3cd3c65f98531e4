#!/usr/bin/env python3
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Flood exposure per zone: python3 flood_exposure.py SCENARIO.json [--format json|table] [--out FILE]."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from floodexp.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
