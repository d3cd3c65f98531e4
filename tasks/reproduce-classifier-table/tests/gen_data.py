# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Deterministic generator of the loan-risk table described in paper.md (section 2).

    python3 gen_data.py OUT.csv [SEED [ROWS]]

Applications come from customers; a repeat customer's applications share most of their fields and an
unrecorded personal effect on the grade, and they are spread through the extract.
"""

from __future__ import annotations

import csv
import math
import random
import sys

REGIONS = ["north", "south", "east", "west"]
EMPLOYMENT = ["salaried", "self-employed", "contract", "unemployed"]
COLUMNS = ["applicant_id", "customer_id", "age", "income", "debt_ratio", "num_accounts", "utilization",
           "late_payments", "region", "employment", "risk"]


def make_rows(seed: int, rows: int, *, scale: float = 1.0, missing: float = 0.05, balance: float = 0.0,
              noise: float = 1.0, repeat: float = 0.55) -> list[dict]:
    """scale multiplies income; missing is the per-cell missing rate; balance shifts the class mix toward
    'high' (> 0) or 'low' (< 0); noise scales the latent noise; repeat is the chance that a customer files
    one more application."""
    rng = random.Random(seed)
    apps = []
    customer = 0
    while len(apps) < rows:
        customer += 1
        region = REGIONS[min(int(rng.random() * 4), 3)]
        employment = EMPLOYMENT[min(int(rng.random() ** 1.6 * 4), 3)]
        age0 = max(18, min(80, int(rng.gauss(41, 12))))
        income0 = max(8.0, rng.lognormvariate(3.9, 0.45))
        debt0 = rng.gauss(0.35, 0.18)
        util0 = rng.betavariate(2, 3)
        accounts0 = rng.gauss(5, 2.5)
        late0 = rng.expovariate(0.9)
        person = rng.gauss(0, 0.75)  # unrecorded: shared by every application of the customer
        count = 1
        while count < 4 and rng.random() < repeat:
            count += 1
        for _ in range(count):
            if len(apps) >= rows:
                break
            age = min(85, age0 + int(rng.random() * 4))
            income = max(8.0, income0 * math.exp(rng.gauss(0, 0.06)))
            debt_ratio = min(1.5, max(0.0, debt0 + rng.gauss(0, 0.04)))
            util = min(1.0, max(0.0, util0 + rng.gauss(0, 0.05)))
            accounts = max(0, int(accounts0 + rng.gauss(0, 0.6)))
            late = min(12, int(late0 + rng.random()))
            z = (2.2 * debt_ratio + 1.6 * util + 0.35 * late - 0.012 * (age - 40) - 0.6 * math.log(income / 50)
                 + {"salaried": -0.4, "self-employed": 0.1, "contract": 0.3, "unemployed": 1.1}[employment]
                 + {"north": 0.0, "south": 0.25, "east": -0.1, "west": 0.1}[region]
                 + 0.04 * accounts + balance + person + noise * rng.gauss(0, 0.4))
            risk = "low" if z < 1.9 else ("medium" if z < 3.0 else "high")
            apps.append({"customer": customer, "age": age, "income": round(income * scale, 2),
                         "debt_ratio": round(debt_ratio, 4), "num_accounts": accounts, "utilization": round(util, 4),
                         "late_payments": late, "region": region, "employment": employment, "risk": risk})
    rng.shuffle(apps)
    out = []
    for i, app in enumerate(apps):
        row = {"applicant_id": f"A{seed % 1000:03d}{i:05d}", "customer_id": f"C{(seed * 7) % 1000:03d}{app.pop('customer'):05d}"}
        row.update(app)
        for key in ("age", "income", "debt_ratio", "utilization", "region", "employment"):
            if rng.random() < missing:
                row[key] = ""
        if rng.random() < missing / 5:
            row["risk"] = ""
        out.append({key: row[key] for key in COLUMNS})
    return out


def write_rows(path: str, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2024
    rows = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    write_rows(sys.argv[1], make_rows(seed, rows))
