#!/usr/bin/env bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# shortcut: no HL7 parsing at all: scrapes OBX lines with a regular expression for the standard delimiters, keeps
# LOINC-coded numeric values as sent (no units, no corrections, no duplicates) and flags nothing
set -euo pipefail
cd /app
cat > labfeed/__main__.py <<'PY'
import csv
import json
import re
import sys
from pathlib import Path

LOINC = {"2345-7": "GLU", "2339-0": "GLU", "14749-6": "GLU", "15074-8": "GLU", "2160-0": "CREA", "14682-9": "CREA",
         "2823-3": "K", "6298-4": "K", "2951-2": "NA", "2947-0": "NA", "17861-6": "CA", "2000-8": "CA",
         "718-7": "HGB", "30313-1": "HGB", "6690-2": "WBC", "26464-8": "WBC", "777-3": "PLT", "26515-7": "PLT",
         "67151-1": "TNT", "6598-7": "TNT", "6301-6": "INR", "34714-6": "INR"}
UNIT = {"GLU": "mmol/L", "CREA": "umol/L", "K": "mmol/L", "NA": "mmol/L", "CA": "mmol/L", "HGB": "g/L",
        "WBC": "10*9/L", "PLT": "10*9/L", "TNT": "ng/L", "INR": "{INR}"}
feed, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
rows, files, messages = [], 0, 0
patient, order, when, sender = "", "", "", ""
for path in sorted(feed.iterdir()):
    if path.suffix.lower() != ".hl7":
        continue
    files += 1
    for line in re.split(r"[\r\n]+", path.read_bytes().decode("latin-1")):
        f = line.split("|")
        if f[0].endswith("MSH"):
            messages += 1
            sender = f[3] if len(f) > 3 else ""
        elif f[0] == "PID" and len(f) > 3:
            c = f[3].split("~")[0].split("^")
            patient = (c[3] if len(c) > 3 else "") + ":" + c[0]
        elif f[0] == "OBR" and len(f) > 7:
            order, when = f[3].split("^")[0], f[7][:12]
        elif f[0] == "OBX" and len(f) > 11 and f[3].split("^")[0] in LOINC:
            a = LOINC[f[3].split("^")[0]]
            t = f"{when[:4]}-{when[4:6]}-{when[6:8]}T{when[8:10]}:{when[10:12]}:00Z" if len(when) >= 12 else ""
            rows.append([patient, a, t, f[5], UNIT[a], "", f[11], sender, order])
rows.sort(key=lambda r: (r[0], r[2], r[1], r[7], r[8]))
with open(out / "results.csv", "w", newline="") as h:
    w = csv.writer(h, lineterminator="\n")
    w.writerow(["patient_id", "analyte", "observed_at", "value", "unit", "flag", "status", "sender", "order_id"])
    w.writerows(rows)
(out / "alerts.csv").write_text("seq,kind,patient_id,analyte,observed_at,value,unit,flag,sender,order_id,control_id\n")
(out / "summary.json").write_text(json.dumps({"files": files, "messages": messages, "results": len(rows)}))
PY
