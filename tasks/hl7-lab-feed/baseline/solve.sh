#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: the quick fixes a first look at the sample suggests: the output columns and summary keys of the
# current specification, results sorted by time before analyte, values written with the analyte's decimals, LF
# and CR LF segment terminators. Still hard-coded delimiters, escapes decoded before splitting, no MLLP bytes,
# character sets, trigger or processing-id checks, duplicates by control id alone, the first PID-3 repetition
# with its whole authority, no alternate LOINC, OBX-14 and offsets ignored, no comparators, ranges, SN or comma
# decimals, half the unit table, days/365 ages, every status a replacement, alerts from the final table, list
# scans.
set -euo pipefail
cd /app
python3 - <<'PY'
from pathlib import Path


def sub(path, old, new):
    p = Path(path)
    text = p.read_text()
    assert old in text, (path, old)
    p.write_text(text.replace(old, new))


sub("labfeed/store.py", "key=lambda r: (r.patient_id, r.analyte, r.observed_at)",
    "key=lambda r: (r.patient_id, r.observed_at, r.analyte, r.sender, r.order_id)")
sub("labfeed/values.py", "return str(round(float(value) * factor, decimals))",
    "return f\"{round(float(value) * factor, decimals):.{decimals}f}\"")
sub("labfeed/store.py",
    'ALERT_COLUMNS = ["patient_id", "analyte", "observed_at", "value", "unit", "flag", "sender", "order_id"]',
    'ALERT_COLUMNS = ["seq", "kind", "patient_id", "analyte", "observed_at", "value", "unit", "flag", "sender", '
    '"order_id", "control_id"]')
sub("labfeed/store.py", "rows.append([result.patient_id,", 'rows.append([str(len(rows) + 1), "CRITICAL", result.patient_id,')
sub("labfeed/store.py", "result.flag, result.sender, result.order_id])", "result.flag, result.sender, result.order_id, result.control_id])")
sub("labfeed/output.py", "summary = dict(outcome.counts)",
    "renamed = {'skipped': 'skipped_messages', 'duplicates': 'duplicate_messages', 'rejected': 'rejected_messages', "
    "'processed': 'processed_messages', 'unmapped': 'unmapped_observations'}\n"
    "    summary = {renamed.get(k, k): v for k, v in outcome.counts.items()}")
sub("labfeed/framing.py", "for segment in text.split(SEGMENT_END):",
    "for segment in text.replace(\"\\r\\n\", \"\\r\").replace(\"\\n\", \"\\r\").split(SEGMENT_END):")
PY
python3 -m labfeed samples/feed /tmp/labfeed-out
cat /tmp/labfeed-out/summary.json
