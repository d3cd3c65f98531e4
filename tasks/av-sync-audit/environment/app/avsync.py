#!/usr/bin/env python3
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Entry point: python3 /app/avsync.py CLIP... --out REPORT.json [--tolerance-ms 40]."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from syncaudit.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
