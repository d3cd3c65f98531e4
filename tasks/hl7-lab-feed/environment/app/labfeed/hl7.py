# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""HL7 v2 segments: field access and escape sequences."""
from __future__ import annotations

# The encoding characters every laboratory we receive from uses (MSH-1 and MSH-2).
FIELD, COMPONENT, REPETITION, ESCAPE, SUBCOMPONENT = "|", "^", "~", "\\", "&"
ESCAPES = [("\\E\\", ESCAPE), ("\\F\\", FIELD), ("\\S\\", COMPONENT), ("\\T\\", SUBCOMPONENT), ("\\R\\", REPETITION)]


def unescape(text: str) -> str:
    for sequence, char in ESCAPES:
        text = text.replace(sequence, char)
    return text


class Segment:
    def __init__(self, text: str) -> None:
        self.name = text[:3]
        self.parts = text.split(FIELD)

    def field(self, n: int) -> str:
        """Field n, unescaped. MSH-1 is the field separator, so MSH-n is parts[n - 1]."""
        index = n - 1 if self.name == "MSH" else n
        return unescape(self.parts[index]).strip() if 0 <= index < len(self.parts) else ""

    def repetitions(self, n: int) -> list[str]:
        return self.field(n).split(REPETITION)

    def components(self, n: int) -> list[str]:
        return self.repetitions(n)[0].split(COMPONENT)

    def value(self, n: int, comp: int = 1) -> str:
        comps = self.components(n)
        return comps[comp - 1].strip() if comp <= len(comps) else ""


class Message:
    def __init__(self, segments: list[str]) -> None:
        self.segments = [Segment(s) for s in segments]

    @property
    def header(self) -> Segment:
        return self.segments[0]
