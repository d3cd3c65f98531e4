# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Seeded workloads and the model the store is checked against (hidden)."""

from __future__ import annotations

import random

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"


def randint(rng: random.Random, low: int, high: int) -> int:
    return low + min(int(rng.random() * (high - low + 1)), high - low)


def token(rng: random.Random, low: int, high: int) -> str:
    return "".join(ALPHABET[randint(rng, 0, len(ALPHABET) - 1)] for _ in range(randint(rng, low, high)))


class Model:
    """What the store must do: a dict, and the exact CLI output of a script."""

    def __init__(self, data: dict | None = None) -> None:
        self.data = dict(data or {})

    def run(self, ops: list) -> list:
        out = []
        for op in ops:
            cmd = op[0]
            if cmd == "put":
                self.data[op[1]] = op[2]
                out.append("ok")
            elif cmd == "del":
                self.data.pop(op[1], None)
                out.append("ok")
            elif cmd == "get":
                out.append(self.data.get(op[1], "(nil)"))
            elif cmd in ("scan", "dump"):
                lo, hi = (op[1], op[2]) if cmd == "scan" else ("", "\x7f")
                out += [f"{k}={v}" for k, v in sorted(self.data.items()) if lo <= k < hi]
                out.append("end")
            elif cmd in ("flush", "compact"):
                out.append("ok")
            else:
                raise ValueError(cmd)
        return out


def script(ops: list) -> str:
    return "".join(" ".join(op) + "\n" for op in ops)


def random_ops(rng: random.Random, n: int, keys: list, p_flush: float = 0.03, p_compact: float = 0.01,
               reads: bool = True, value_len=(3, 40)) -> list:
    ops = []
    for _ in range(n):
        x = rng.random()
        key = keys[randint(rng, 0, len(keys) - 1)]
        if x < 0.45:
            ops.append(("put", key, token(rng, *value_len)))
        elif x < 0.62:
            ops.append(("del", key))
        elif x < 0.62 + p_flush:
            ops.append(("flush",))
        elif x < 0.62 + p_flush + p_compact:
            ops.append(("compact",))
        elif reads and x < 0.85:
            ops.append(("get", key))
        elif reads and x < 0.9:
            a, b = sorted((token(rng, 1, 2), token(rng, 1, 2)))
            ops.append(("scan", a, b))
        else:
            ops.append(("put", key, token(rng, *value_len)))
    return ops


def key_space(rng: random.Random, n: int) -> list:
    return sorted({token(rng, 2, 10) for _ in range(n)})


def writes_in(ops: list) -> int:
    return sum(1 for op in ops if op[0] in ("put", "del"))
