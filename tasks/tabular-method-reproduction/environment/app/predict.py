# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""python3 predict.py --model MODEL_DIR --data TEST.csv --out PRED.csv: write row_id,prob for every test row."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from tabmethod import io, model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    bundle = model.load(str(Path(args.model) / "model.pkl"))
    table = io.load_table(args.data)
    io.write_predictions(args.out, table["row_id"], model.predict(bundle, table))


if __name__ == "__main__":
    main()
