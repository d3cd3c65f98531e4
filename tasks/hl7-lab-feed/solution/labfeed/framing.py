# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cut a feed file into messages: MLLP framing bytes, any segment terminator, batch envelopes."""
from __future__ import annotations

import re

MLLP_BYTES = (b"\x0b", b"\x1c")
ENVELOPE = {b"FHS", b"BHS", b"BTS", b"FTS"}
TERMINATOR = re.compile(rb"\r\n|\r|\n")


def split_messages(data: bytes) -> list[list[bytes]]:
    """Each message as its raw segments (bytes, still in the sender's character set)."""
    for marker in MLLP_BYTES:
        data = data.replace(marker, b"")
    messages: list[list[bytes]] = []
    current: list[bytes] | None = None
    for segment in TERMINATOR.split(data):
        if not segment.strip():
            continue
        tag = segment[:3]
        if tag == b"MSH":
            current = [segment]
            messages.append(current)
        elif tag in ENVELOPE:
            current = None
        elif current is not None:
            current.append(segment)
    return messages
