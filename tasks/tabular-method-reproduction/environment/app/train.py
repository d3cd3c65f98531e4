# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""python3 train.py --data TRAIN.csv --out MODEL_DIR: fit the method of paper.md and save it in MODEL_DIR."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tabmethod import io, model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    bundle = model.train(io.load_table(args.data))
    Path(args.out).mkdir(parents=True, exist_ok=True)
    model.save(bundle, str(Path(args.out) / "model.pkl"))


if __name__ == "__main__":
    main()
