# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""results.csv, alerts.csv and summary.json."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from labfeed.pipeline import Outcome
from labfeed.store import ALERT_COLUMNS, RESULT_COLUMNS


def _write_csv(path: Path, header: list[str], rows: list[list[str]]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


def write_outputs(outcome: Outcome, out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = outcome.store.rows()
    _write_csv(out_dir / "results.csv", RESULT_COLUMNS, rows)
    _write_csv(out_dir / "alerts.csv", ALERT_COLUMNS, outcome.store.alerts)
    summary = dict(outcome.counts)
    summary["results"] = len(rows)
    summary["alerts"] = len(outcome.store.alerts)
    summary["patients"] = len({r[0] for r in rows})
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
