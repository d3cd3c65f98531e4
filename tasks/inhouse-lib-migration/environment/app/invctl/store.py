# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The data directory: a handful of JSON documents plus the ledgerlib journal."""

import json
import os

import ledgerlib
from ledgerlib import Journal

from invctl.errors import UserError

ACCOUNTS = [
    "1000 Cash",
    "1100 Receivables",
    "1200 Inventory",
    "2000 Payables",
    "2100 Sales Tax",
    "4000 Sales",
    "5000 Cost of Goods",
    "5100 Shrinkage",
]
DOCUMENTS = ("settings", "items", "customers", "invoices", "payments")


class Store:
    """Loads every document of a data directory, and saves them back."""

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.docs = {}
        self.journal = None

    def path(self, name):
        return os.path.join(self.data_dir, name + ".json")

    @property
    def initialized(self):
        return os.path.exists(self.path("settings"))

    def load(self):
        if not self.initialized:
            raise UserError(f"no data here; run 'init' first")
        for name in DOCUMENTS:
            with open(self.path(name), encoding="utf-8") as handle:
                self.docs[name] = json.load(handle)
        self.configure()
        self.journal = Journal(self.path("journal"), ACCOUNTS)
        return self

    def configure(self):
        ledgerlib.config.configure(currency=self.settings["currency"], rounding="half_up")

    def create(self, currency, tax_rate):
        os.makedirs(self.data_dir, exist_ok=True)
        self.docs = {
            "settings": {"currency": currency, "tax_rate": tax_rate, "schema": 1},
            "items": {},
            "customers": {},
            "invoices": {},
            "payments": [],
        }
        for name in ("journal",):
            if os.path.exists(self.path(name)):
                os.remove(self.path(name))
        self.configure()
        self.journal = Journal(self.path("journal"), ACCOUNTS)
        return self

    def save(self):
        for name, doc in self.docs.items():
            tmp = self.path(name) + ".tmp"
            with open(tmp, "w", encoding="utf-8") as handle:
                json.dump(doc, handle, indent=1, sort_keys=True)
            os.replace(tmp, self.path(name))
        self.journal.save()

    @property
    def settings(self):
        return self.docs["settings"]

    @property
    def items(self):
        return self.docs["items"]

    @property
    def customers(self):
        return self.docs["customers"]

    @property
    def invoices(self):
        return self.docs["invoices"]

    @property
    def payments(self):
        return self.docs["payments"]
