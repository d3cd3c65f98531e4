#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Weak baseline: wraps the team's run_close.py into the required CLI and fixes the obvious parsing problems
# (decimal-comma amounts, lower-case references), weekend rates; still converts on the statement date, no XLSX,
# no MT940-like .sta statements, no de-duplication, reversals, split payments, bulk remittances or netted fees,
# and unsorted outputs.
set -euo pipefail
cd /app
sed -e 's|main("sample/statements", "sample/ledger.csv", "sample/rates.csv", "out")|main(*sys.argv[1:5])|' run_close.py > reconcile.py
python3 - <<'PY'
from pathlib import Path
p = Path("recon/statements.py"); t = p.read_text()
t = t.replace('"amount": _money(row[3])', '"amount": Decimal(row[3].strip().replace(".", "").replace(",", "."))')
t = t.replace('REF = re.compile(r"\\b(INV|PAY)-\\d{4,6}\\b")', 'REF = re.compile(r"\\b(INV|PAY|REF)-\\d{4,6}\\b", re.IGNORECASE)')
t = t.replace('line["reference"] = m.group(0) if m else ""', 'line["reference"] = m.group(0).upper() if m else ""')
p.write_text(t)
p = Path("recon/fx.py"); t = p.read_text()
t = t.replace('        return self.table.get((ccy, day), 1.0)', '''        for back in range(10):
            if (ccy, day - dt.timedelta(back)) in self.table:
                return self.table[(ccy, day - dt.timedelta(back))]
        return 1.0''')
p.write_text(t)
PY
python3 reconcile.py sample/statements sample/ledger.csv sample/rates.csv /tmp/close-out
