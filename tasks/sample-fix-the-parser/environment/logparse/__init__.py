# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""logparse: summarise pipe-separated service logs as JSON statistics."""

from logparse.parser import Entry, parse_file, parse_line, summarize

__all__ = ["Entry", "parse_file", "parse_line", "summarize"]
