# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""OBX-5 values: numbers (decimal point or comma), comparators, ranges, structured numerics (SN), text."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

NUMBER = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
UNSIGNED = r"(?:\d+(?:[.,]\d*)?|[.,]\d+)"
PLAIN = re.compile(NUMBER)
COMPARED = re.compile(rf"(<=|>=|<|>)\s*({NUMBER})")
RANGE = re.compile(rf"({UNSIGNED})\s*-\s*({UNSIGNED})")
COMPARATORS = {"<", ">", "<=", ">="}


@dataclass(frozen=True)
class Quantity:
    kind: str  # "number", "range" or "text"
    comparator: str = ""
    low: Decimal | None = None
    high: Decimal | None = None  # only for ranges


def number(text: str) -> Decimal:
    return Decimal(text.replace(",", "."))


def parse_text(text: str) -> Quantity:
    if PLAIN.fullmatch(text):
        return Quantity("number", "", number(text))
    m = COMPARED.fullmatch(text)
    if m:
        return Quantity("number", m[1], number(m[2]))
    m = RANGE.fullmatch(text)
    if m:
        return Quantity("range", "", number(m[1]), number(m[2]))
    return Quantity("text")


def parse_sn(comps: list[str]) -> Quantity:
    c1, c2, c3, c4 = (comps + ["", "", "", ""])[:4]
    if c3 == "" and c4 == "" and PLAIN.fullmatch(c2) and (c1 in COMPARATORS or c1 in ("", "=")):
        return Quantity("number", c1 if c1 in COMPARATORS else "", number(c2))
    if c1 == "" and c3 == "-" and re.fullmatch(UNSIGNED, c2) and re.fullmatch(UNSIGNED, c4):
        return Quantity("range", "", number(c2), number(c4))
    return Quantity("text")


def parse_value(value_type: str, comps: list[str]) -> Quantity:
    if value_type == "SN":
        return parse_sn(comps)
    return parse_text(comps[0] if comps else "")


def rounded(value: Decimal, decimals: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def fmt(value: Decimal) -> str:
    return f"{value:f}"
