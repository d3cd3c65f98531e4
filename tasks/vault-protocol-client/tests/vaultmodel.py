# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's model of vaultd's data generator: the records and blobs an instance serves, from its options.

It draws from the same splitmix64 stream in the same order as the server's generate(); the JSON form of each
value is the one instruction.md specifies (text, numbers, booleans, null, base64 bytes, lists, blob refs).
"""

from __future__ import annotations

import base64

MASK = (1 << 64) - 1
WORDS = ["amber", "basalt", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kestrel",
         "lumen", "marlin", "nectar", "onyx", "pylon", "quartz", "raven", "sable", "tundra", "umber", "vortex",
         "willow", "xenon", "yarrow", "zephyr"]
UWORDS = ["café", "naïve", "Grüße", "日本", "señal", "Ωmega", "tab\there", 'quote"d', "back\\slash", "line\nbreak",
          "\U0001f511key", "nul\x7fdel"]
OWNERS = ["ops", "finance", "legal", "research", "support", "audit", "platform"]
RARE_KEYS = ["flag", "note", "digest", "ratio", "items", "label"]


class Rng:
    def __init__(self, state: int) -> None:
        self.s = state & MASK

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n


def _word(r: Rng, rare: bool) -> str:
    if rare and r.below(4) == 0:
        return UWORDS[r.below(len(UWORDS))]
    return WORDS[r.below(len(WORDS))]


def _list(r: Rng, depth: int) -> list:
    items = []
    for _ in range(r.below(5)):
        t = r.below(5 if depth < 1 else 4)
        if t == 0:
            items.append(WORDS[r.below(len(WORDS))])
        elif t == 1:
            items.append(r.below(1000) - 500)
        elif t == 2:
            items.append(r.below(2) == 1)
        elif t == 3:
            items.append(None)
        else:
            items.append(_list(r, depth + 1))
    return items


def _rare(r: Rng, kind: int):
    if kind == 0:
        return r.below(2) == 1
    if kind == 1:
        return None
    if kind == 2:
        return base64.b64encode(bytes(r.below(256) for _ in range(r.below(24)))).decode()
    if kind == 3:
        return (r.below(2000001) - 1000000) / 64.0
    if kind == 4:
        return _list(r, 0)
    a = UWORDS[r.below(len(UWORDS))]
    return a + " " + UWORDS[r.below(len(UWORDS))]


def blob_bytes(seed: int, blob_id: int, size: int) -> bytes:
    r = Rng(seed ^ ((blob_id * 0xD1B54A32D192ED03) & MASK))
    out = bytearray()
    while len(out) < size:
        out += r.next().to_bytes(8, "little")
    return bytes(out[:size])


def generate(seed: int, records: int, rare: bool = False, big: bool = False) -> tuple[list[dict], dict[int, bytes]]:
    """(records in id order as instruction.md's JSON objects, {blob id: content})"""
    r = Rng(seed ^ 0x5EEDDA7A)
    rec_id = 1000 + r.below(9000)
    blob_id = 1 + r.below(50)
    out, blobs = [], {}
    for i in range(records):
        if i:
            rec_id += 1 + r.below(5)
        w1 = _word(r, rare)
        fields = {"name": w1 + "-" + _word(r, rare), "count": r.below(2000001) - 1000000}
        if r.below(2) == 0:
            fields["owner"] = OWNERS[r.below(len(OWNERS))]
        if r.below(3) == 0:
            size = r.below((70000 if big else 5000) + 1)
            fields["attachment"] = {"blob": blob_id, "size": size}
            blobs[blob_id] = size
            blob_id += 1 + r.below(3)
        if rare:
            for j in range(1 + r.below(3)):
                kind = r.below(6)
                fields[RARE_KEYS[kind] + (str(j) if j else "")] = _rare(r, kind)
        out.append({"id": rec_id, "fields": fields})
    return out, {b: blob_bytes(seed, b, size) for b, size in blobs.items()}
