#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Gold solution: the repaired labfeed package (framing with MLLP bytes, any terminator and batch envelopes; each
# message's own delimiters and character set; escapes decoded per subcomponent after splitting, with hex
# sequences; trigger and processing-id filters; duplicates by application, facility and control id; patients
# from the MR repetition with its authority; LOINC from the primary or alternate coding; OBX-14 and UTC offsets
# with the MSH-7 default; SN, comparators, ranges and comma decimals; the full unit table with exact half-up
# conversion; completed-year ages and the first matching range row; the P/F/C/D/X state machine with
# critical/retracted alerts; dictionaries instead of list scans), run on the public sample.
set -euo pipefail
rm -rf /app/labfeed
cp -r "$(dirname "$0")/labfeed" /app/labfeed
cd /app
python3 -m labfeed samples/feed /tmp/labfeed-out
for f in results.csv alerts.csv summary.json; do cmp "/tmp/labfeed-out/$f" "samples/expected/$f"; done
echo "sample reproduced"
