# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""FX rates (USD per unit of currency)."""

import csv
import datetime as dt
from decimal import Decimal


class Rates:
    def __init__(self, path):
        self.table = {}
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                self.table[(row["currency"], dt.date.fromisoformat(row["date"]))] = float(row["usd_per_unit"])

    def rate(self, ccy, day):
        if ccy == "USD":
            return 1.0
        return self.table.get((ccy, day), 1.0)

    def convert(self, amount, src, dst, day):
        if src == dst:
            return amount
        return Decimal(str(round(float(amount) * self.rate(src, day) / self.rate(dst, day), 2)))
