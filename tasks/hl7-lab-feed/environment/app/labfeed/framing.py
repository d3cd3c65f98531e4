# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Cut a feed file into messages."""
from __future__ import annotations

SEGMENT_END = "\r"  # HL7 v2 segment terminator


def split_messages(data: bytes) -> list[list[str]]:
    """Each message as its list of segments."""
    text = data.decode("utf-8", errors="replace")
    messages: list[list[str]] = []
    for segment in text.split(SEGMENT_END):
        if segment.startswith("MSH"):
            messages.append([segment])
        elif segment.strip() and messages:
            messages[-1].append(segment)
    return messages
