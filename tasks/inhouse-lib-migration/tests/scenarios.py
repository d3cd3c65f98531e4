# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded command scenarios for invctl: each family stresses one part of the ledgerlib 2 migration.

A scenario is a list of command lines (as a `batch` file holds them). Commands are generated from a rough
model of the state; some of them are meant to fail (the reference output says how).
"""

from __future__ import annotations

from lhtb.grading import stress

WORDS = ["Widget", "Gadget", "Sprocket", "Flange", "Bracket", "Gizmo", "Valve", "Hinge", "Clamp", "Spindle"]
NAMES = ["Acme Ltd", "Bobs Bikes", "Corner Cafe", "Delta Works", "Echo Farms", "Fox & Sons", "Gale Shipping"]
KNOBS = ("discounts", "dayfirst", "overpay", "plans", "errors", "currency", "big", "voids", "limits")
FAMILIES = {
    "basic": frozenset(),
    "rounding": frozenset({"discounts"}),
    "credit": frozenset({"overpay", "voids", "limits"}),
    "dates": frozenset({"dayfirst", "plans"}),
    "input_errors": frozenset({"errors", "limits"}),
    "currencies": frozenset({"currency", "big", "discounts"}),
    "mixed": frozenset(KNOBS),
}


def _int(rng, low, high):
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def _chance(rng, p):
    return rng.random() < p


def _money(cents, style):
    text = f"{cents // 100}.{cents % 100:02d}"
    if style == "short" and cents % 100 == 0:
        return str(cents // 100)
    if style == "short" and cents % 10 == 0:
        return f"{cents // 100}.{(cents % 100) // 10}"
    if style == "symbol":
        return f"${cents // 100:,}.{cents % 100:02d}"
    if style == "thousands" and cents >= 100000:
        return f"{cents // 100:,}.{cents % 100:02d}"
    return text


class Builder:
    def __init__(self, rng, knobs):
        self.rng = rng
        self.knobs = knobs
        self.lines: list[str] = []
        self.day = _int(rng, 1, 300)
        self.skus: list[str] = []
        self.customers: list[str] = []
        self.invoices = 0
        self.drafts: list[str] = []
        self.issued: list[str] = []

    def date(self, step=True):
        if step:
            self.day += _int(self.rng, 0, 6)
        y, rest = 2023 + self.day // 360, self.day % 360
        m, d = 1 + rest // 30, 1 + min(rest % 30, 27)
        if "dayfirst" in self.knobs and _chance(self.rng, 0.6):
            return f"{d:02d}/{m:02d}/{y}" if _chance(self.rng, 0.7) else f"{d}/{m}/{y}"
        return f"{y}-{m:02d}-{d:02d}"

    def amount(self, low, high):
        cents = _int(self.rng, low, high)
        if "big" in self.knobs and _chance(self.rng, 0.3):
            cents *= _int(self.rng, 50, 900)
        styles = ["plain", "short"]
        if "errors" in self.knobs or "currency" in self.knobs or "big" in self.knobs:
            styles += ["symbol", "thousands"]
        return cents, _money(cents, stress.pick(self.rng, styles))

    def add(self, line):
        self.lines.append(line)

    def maybe_error(self):
        if "errors" not in self.knobs or not _chance(self.rng, 0.35):
            return
        rng = self.rng
        sku = stress.pick(rng, self.skus) if self.skus else "NOPE"
        choice = _int(rng, 0, 13)
        bad_amount = stress.pick(rng, ["abc", "12.5.1", "1O.00", "--5", "12,50x", "NaN", "twelve"])
        odd_amount = stress.pick(rng, ["12.345", "0.005", "$1,000", "\u20ac19.99", " 7.125 ", "1,234.565"])
        bad_date = stress.pick(rng, ["2024-02-30", "31/04/2024", "yesterday", "2024/03/05", "2024-13-01", "32/01/2024"])
        if choice == 0:
            self.add(f"item price {sku} {bad_amount}")
        elif choice == 1:
            self.add(f"item price {sku} {odd_amount!r}".replace("'", '"'))
        elif choice == 2:
            self.add(f"stock receive {sku} 3 1.00 --date {bad_date}")
        elif choice == 3:
            self.add(f"stock receive {sku} x 1.00 --date {self.date(False)}")
        elif choice == 4:
            self.add(f"stock adjust {sku} -999 --reason lost --date {self.date(False)}")
        elif choice == 5:
            self.add(f"invoice line INV-9999 {sku} 1")
        elif choice == 6:
            self.add(f"pay {stress.pick(rng, self.customers) if self.customers else 'C9'} {bad_amount} --date {self.date(False)}")
        elif choice == 7:
            self.add(f"pay NOBODY 10 --date {self.date(False)}")
        elif choice == 8:
            self.add(f"invoice new {stress.pick(rng, self.customers) if self.customers else 'C9'}")
        elif choice == 9:
            self.add(f"report aging --as-of {bad_date}")
        elif choice == 10:
            self.add(f"item add {sku} Dup 1.00")
        elif choice == 11:
            self.add(f"customer add Z{_int(rng, 1, 9)} Zed --terms {stress.pick(rng, ['x', '400', '-1', '15'])}")
        elif choice == 12:
            self.add(f"invoice line {stress.pick(rng, self.issued) if self.issued else 'INV-0001'} {sku} 1")
        else:
            self.add(f"refund {stress.pick(rng, self.customers) if self.customers else 'C9'} 100000 --date {self.date(False)}")

    def setup(self):
        rng = self.rng
        currency = stress.pick(rng, ["EUR", "GBP", "USD"]) if "currency" in self.knobs else "USD"
        tax = stress.pick(rng, ["0", "5", "8.25", "7.75", "20", "6.5", "19.6", "12.5"])
        self.add(f"init --currency {currency.lower() if _chance(rng, 0.3) else currency} --tax-rate {tax}")
        for i in range(_int(rng, 3, 5)):
            sku = f"{stress.pick(rng, WORDS)[:3].upper()}{i + 1}"
            self.skus.append(sku)
            _, price = self.amount(99, 9999)
            name = stress.pick(rng, WORDS) + (" " + stress.pick(rng, ["XL", "mini", "pro"]) if _chance(rng, 0.4) else "")
            self.add(f'item add {sku} "{name}" {price}')
        for sku in self.skus:
            for _ in range(_int(rng, 1, 2)):
                _, cost = self.amount(50, 5000)
                self.add(f"stock receive {sku} {_int(rng, 5, 40)} {cost} --date {self.date()}")
        for i in range(_int(rng, 2, 4)):
            cid = f"C{i + 1}"
            self.customers.append(cid)
            extra = f" --terms {stress.pick(rng, ['7', '14', '30', '45', '60'])}" if _chance(rng, 0.7) else ""
            if "limits" in self.knobs and _chance(rng, 0.6):
                extra += f" --limit {_money(_int(rng, 50, 900) * 100, 'short')}"
            self.add(f'customer add {cid} "{stress.pick(rng, NAMES)}"{extra}')

    def invoice(self):
        rng = self.rng
        cid = stress.pick(rng, self.customers)
        self.invoices += 1
        inv = f"INV-{self.invoices:04d}"
        self.add(f"invoice new {cid} --date {self.date()}")
        for _ in range(_int(rng, 1, 4)):
            line = f"invoice line {inv} {stress.pick(rng, self.skus)} {_int(rng, 1, 6)}"
            if "discounts" in self.knobs and _chance(rng, 0.7):
                line += f" --discount {stress.pick(rng, ['50', '10', '12.5', '15', '33', '2.5', '7.5', '25', '5%'])}"
            if _chance(rng, 0.2):
                line += f" --price {self.amount(5, 3000)[1]}"
            self.add(line)
            self.maybe_error()
        if _chance(rng, 0.85):
            self.add(f"invoice issue {inv} --date {self.date()}")
            self.issued.append(inv)
        else:
            self.drafts.append(inv)
        if _chance(rng, 0.3):
            self.add(f"invoice show {inv}")

    def payment(self):
        rng = self.rng
        cid = stress.pick(rng, self.customers)
        high = 150000 if "overpay" in self.knobs else 30000
        _, amount = self.amount(500, high)
        self.add(f"pay {cid} {amount} --date {self.date()}" + (f" --ref R{_int(rng, 100, 999)}" if _chance(rng, 0.3) else ""))
        if "overpay" in self.knobs and _chance(rng, 0.4):
            self.add(f"refund {cid} {self.amount(100, 2000)[1]} --date {self.date()}")

    def build(self, steps):
        rng = self.rng
        self.setup()
        for _ in range(steps):
            roll = rng.random()
            if roll < 0.45:
                self.invoice()
            elif roll < 0.7:
                self.payment()
            elif roll < 0.78:
                sku = stress.pick(rng, self.skus)
                self.add(f"stock receive {sku} {_int(rng, 1, 30)} {self.amount(50, 5000)[1]} --date {self.date()}")
            elif roll < 0.84:
                sku = stress.pick(rng, self.skus)
                delta = stress.pick(rng, ["-1", "-2", "+3", "-5", "2"])
                self.add(f"stock adjust {sku} {delta} --reason {stress.pick(rng, ['damaged', 'count', 'theft'])} --date {self.date()}")
            elif roll < 0.9 and self.issued:
                inv = stress.pick(rng, self.issued)
                if "voids" in self.knobs and _chance(rng, 0.6):
                    self.add(f"invoice void {inv} --date {self.date()}")
                elif "plans" in self.knobs or _chance(rng, 0.3):
                    self.add(f"invoice plan {inv} {_int(rng, 2, 7)}")
                else:
                    self.add(f"invoice show {inv}")
            else:
                self.report()
            self.maybe_error()
        self.report()
        self.add("report balances")
        for cid in self.customers:
            if _chance(self.rng, 0.5):
                self.add(f"report statement {cid}")
        self.add("report stock")
        self.add("customer list")
        self.add(f"report aging --as-of {self.date()}")
        return self.lines

    def report(self):
        rng = self.rng
        kind = _int(rng, 0, 4)
        if kind == 0:
            self.add(f"report aging --as-of {self.date()}")
        elif kind == 1:
            self.add("report balances")
        elif kind == 2:
            self.add(f"report statement {stress.pick(rng, self.customers)}")
        elif kind == 3:
            self.add("customer list")
        else:
            self.add("item list")


def scenario(seed: int, family: str, index: int, steps: int | None = None) -> list[str]:
    rng = stress.rng(seed, "scenario", family, index)
    knobs = FAMILIES[family]
    return Builder(rng, knobs).build(steps if steps is not None else _int(rng, 8, 14))
