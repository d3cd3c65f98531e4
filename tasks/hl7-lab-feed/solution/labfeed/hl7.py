# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""HL7 v2 message model: per-message delimiters and character set, field access, escape sequences."""
from __future__ import annotations

from dataclasses import dataclass

LATIN1_NAMES = {"8859/1"}


@dataclass(frozen=True)
class Delimiters:
    field: str
    component: str
    repetition: str
    escape: str
    subcomponent: str


def charset_of(msh: bytes) -> str:
    """MSH-18 read from the raw header (ASCII-compatible in every character set we accept)."""
    sep = msh[3:4]
    parts = msh.split(sep)
    if len(parts) < 18:
        return "utf-8"
    enc = parts[1].decode("latin-1")
    value = parts[17].decode("latin-1")
    if len(enc) >= 2:
        value = value.split(enc[1])[0]
    if len(enc) >= 1:
        value = value.split(enc[0])[0]
    return "latin-1" if value.strip() in LATIN1_NAMES else "utf-8"


def unescape(text: str, delims: Delimiters, charset: str) -> str:
    """Decode escape sequences in one subcomponent."""
    esc = delims.escape
    if not esc or esc not in text:
        return text
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch != esc:
            out.append(ch)
            i += 1
            continue
        end = text.find(esc, i + 1)
        if end < 0:
            out.append(text[i:])
            break
        body = text[i + 1:end]
        i = end + 1
        simple = {"F": delims.field, "S": delims.component, "T": delims.subcomponent,
                  "R": delims.repetition, "E": delims.escape}
        if body in simple:
            out.append(simple[body])
        elif body[:1] in ("X", "x") and len(body) > 1:
            try:
                out.append(bytes.fromhex(body[1:]).decode(charset))
            except ValueError:
                pass
        # any other sequence (highlighting, formatting, character set switches) is dropped
    return "".join(out)


class Segment:
    def __init__(self, text: str, delims: Delimiters, charset: str) -> None:
        self.name = text[:3]
        self.delims = delims
        self.charset = charset
        parts = text.split(delims.field)
        if self.name == "MSH":  # MSH-1 is the field separator itself: parts[k] is MSH-(k+1)
            self.fields = [delims.field, *parts[1:]]
        else:
            self.fields = parts[1:]

    def raw(self, n: int) -> str:
        return self.fields[n - 1] if 0 < n <= len(self.fields) else ""

    def repetitions(self, n: int) -> list[str]:
        if self.name == "MSH" and n <= 2:
            return [self.raw(n)]
        return self.raw(n).split(self.delims.repetition)

    def components(self, n: int, rep: int = 0) -> list[str]:
        """Components of field n (repetition rep), each its first subcomponent, unescaped and stripped."""
        reps = self.repetitions(n)
        if rep >= len(reps):
            return []
        return [self._text(c.split(self.delims.subcomponent)[0]) for c in reps[rep].split(self.delims.component)]

    def subcomponents(self, n: int, comp: int, rep: int = 0) -> list[str]:
        reps = self.repetitions(n)
        if rep >= len(reps):
            return []
        comps = reps[rep].split(self.delims.component)
        if comp > len(comps):
            return []
        return [self._text(s) for s in comps[comp - 1].split(self.delims.subcomponent)]

    def value(self, n: int, comp: int = 1, rep: int = 0) -> str:
        comps = self.components(n, rep)
        return comps[comp - 1] if comp <= len(comps) else ""

    def _text(self, raw: str) -> str:
        return unescape(raw, self.delims, self.charset).strip()


class Message:
    def __init__(self, raw_segments: list[bytes]) -> None:
        msh = raw_segments[0]
        self.charset = charset_of(msh)
        header = msh.decode(self.charset, errors="replace")
        enc = header.split(header[3:4])[1] if len(header) > 3 else ""
        enc = (enc + "^~\\&")[:4] if len(enc) < 4 else enc
        self.delims = Delimiters(header[3:4] or "|", enc[0], enc[1], enc[2], enc[3])
        self.segments = [Segment(s.decode(self.charset, errors="replace"), self.delims, self.charset)
                         for s in raw_segments]

    @property
    def header(self) -> Segment:
        return self.segments[0]
