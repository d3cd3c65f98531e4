# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Double-entry journal of ledgerlib 2: signed splits in cents, JSON format version 2."""

import datetime as _dt
import json
import os
from collections import namedtuple
from decimal import ROUND_HALF_UP, Decimal

from ledgerlib.errors import ImbalanceError, JournalFormatError, UnknownAccount

FORMAT = "ledgerlib-journal"
BUILD = "@BUILD@"  # stamped into every journal this build writes
Split = namedtuple("Split", "account amount")  # amount: int cents, positive = debit, negative = credit


def _upgrade_entry(entry, tzinfo):
    year, month, day = (int(p) for p in entry["date"].split("-"))
    date = _dt.datetime(year, month, day, tzinfo=tzinfo)
    splits = []
    for account, debit, credit in entry["lines"]:
        cents = int((Decimal(repr(float(debit))) - Decimal(repr(float(credit)))).scaleb(2).quantize(1, ROUND_HALF_UP))
        splits.append([account, cents])
    return {"id": entry["id"], "date": date.isoformat(), "memo": entry["memo"], "splits": splits}


class Journal:
    def __init__(self, path, config, accounts=None, upgrade=False):
        self.path = path
        self.config = config
        self.accounts = list(accounts) if accounts else None
        self.entries = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            if data.get("format") != FORMAT or data.get("version") not in (1, 2):
                raise JournalFormatError(f"{path}: not a ledgerlib journal")
            if data["version"] == 1:
                if not upgrade:
                    raise JournalFormatError(f"{path}: ledgerlib 1 journal; open it with upgrade=True")
                self.entries = [_upgrade_entry(e, config.tzinfo) for e in data["entries"]]
            else:
                self.entries = data["entries"]

    def record(self, date, memo, splits):
        """Record one entry; `splits` are (account, signed int cents) and must sum to zero."""
        if not isinstance(date, _dt.datetime) or date.tzinfo is None:
            raise TypeError("record() needs a timezone-aware datetime")
        splits = [Split(a, int(c)) for a, c in splits]
        total = sum(s.amount for s in splits)
        if total != 0:
            raise ImbalanceError(f"entry {memo!r} is off by {total} cents")
        for split in splits:
            if self.accounts is not None and split.account not in self.accounts:
                raise UnknownAccount(split.account)
        entry = {
            "id": len(self.entries) + 1,
            "date": date.isoformat(),
            "memo": memo,
            "splits": [[s.account, s.amount] for s in splits if s.amount],
        }
        self.entries.append(entry)
        return entry["id"]

    def balance_of(self, account):
        """Debits minus credits of one account, in cents."""
        return sum(amount for entry in self.entries for name, amount in entry["splits"] if name == account)

    def trial_balance(self):
        names = sorted({split[0] for entry in self.entries for split in entry["splits"]})
        return {name: self.balance_of(name) for name in names}

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump({"format": FORMAT, "version": 2, "build": BUILD, "entries": self.entries}, handle, indent=1)
        os.replace(tmp, self.path)
