# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Parse pipe-separated service log lines and compute summary statistics.

Line format: ``TIMESTAMP | LEVEL | SERVICE | LATENCY_MS | MESSAGE`` (see /app/examples).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}")
LATENCY = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Entry:
    timestamp: str
    level: str
    service: str
    latency_ms: int
    message: str


def parse_line(line: str) -> Entry | None:
    """One log line as an Entry, or None when the line is malformed."""
    parts = [part.strip() for part in line.split("|")]
    if len(parts) != 5:
        return None
    timestamp, level, service, latency, message = parts
    if not TIMESTAMP.fullmatch(timestamp):
        return None
    if level not in LEVELS:
        return None
    if not service or not LATENCY.fullmatch(latency):
        return None
    return Entry(timestamp, level.upper(), service, int(latency), message)


def parse_file(path: str) -> tuple[list[Entry], int]:
    """The entries of a log file and the number of malformed lines (blank lines and comments are skipped)."""
    entries: list[Entry] = []
    malformed = 0
    with open(path, "rb") as handle:
        for raw in handle:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            entry = parse_line(line)
            if entry is None:
                malformed += 1
            else:
                entries.append(entry)
    return entries, malformed


def summarize(entries: list[Entry], malformed: int) -> dict:
    """The JSON-ready statistics of parsed entries."""
    by_level = {level: 0 for level in LEVELS}
    by_service: dict[str, int] = {}
    for entry in entries:
        by_level[entry.level] += 1
        by_service[entry.service] = by_service.get(entry.service, 0) + 1
    latencies = [entry.latency_ms for entry in entries]
    timestamps = [entry.timestamp for entry in entries]
    count = len(entries)
    return {
        "entries": count,
        "malformed": malformed,
        "by_level": by_level,
        "by_service": dict(sorted(by_service.items())),
        "latency_ms": (
            {"min": min(latencies), "max": max(latencies), "mean": round(sum(latencies) / count, 2)} if count else None
        ),
        "first": min(timestamps) if count else None,
        "last": max(timestamps) if count else None,
        "error_rate": round(by_level["ERROR"] / count, 4) if count else 0.0,
    }
