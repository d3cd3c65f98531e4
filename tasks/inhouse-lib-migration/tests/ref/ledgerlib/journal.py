# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""A double-entry journal persisted as JSON (ledgerlib 1.x format)."""

import json
import os

from ledgerlib.dates import fmt_date, parse_date
from ledgerlib.errors import UnbalancedEntry, UnknownAccount, ValidationError
from ledgerlib.money import round_money

FORMAT = "ledgerlib-journal"


class Journal:
    def __init__(self, path, accounts=None):
        self.path = path
        self.accounts = list(accounts) if accounts else None
        self.entries = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            if data.get("format") != FORMAT or data.get("version") != 1:
                raise ValidationError(f"{path}: not a ledgerlib 1 journal")
            self.entries = data["entries"]

    def post(self, date, memo, lines):
        """Post one entry; `lines` is a list of (account, debit, credit) with float amounts."""
        debit = round_money(sum(d for _, d, _ in lines))
        credit = round_money(sum(c for _, _, c in lines))
        if debit != credit:
            raise UnbalancedEntry(f"entry {memo!r} does not balance: debit {debit} != credit {credit}")
        for account, _, _ in lines:
            if self.accounts is not None and account not in self.accounts:
                raise UnknownAccount(account)
        entry = {
            "id": len(self.entries) + 1,
            "date": fmt_date(date),
            "memo": memo,
            "lines": [[a, round_money(d), round_money(c)] for a, d, c in lines if d or c],
        }
        self.entries.append(entry)
        return entry["id"]

    def balance(self, account):
        """Debits minus credits of one account (float)."""
        total = 0.0
        for entry in self.entries:
            for name, debit, credit in entry["lines"]:
                if name == account:
                    total += debit - credit
        return round_money(total)

    def trial_balance(self):
        names = sorted({line[0] for entry in self.entries for line in entry["lines"]})
        return {name: self.balance(name) for name in names}

    def entries_between(self, start, end):
        return [e for e in self.entries if start <= parse_date(e["date"]) <= end]

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump({"format": FORMAT, "version": 1, "entries": self.entries}, handle, indent=1)
        os.replace(tmp, self.path)
