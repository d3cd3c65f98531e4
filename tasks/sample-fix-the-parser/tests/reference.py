# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The verifier's own, correct log summariser: the expected output for every case."""

from __future__ import annotations

import re

LEVELS = ("DEBUG", "INFO", "WARN", "ERROR")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}")
LATENCY = re.compile(r"[0-9]+")


def _parse_line(line: str) -> tuple[str, str, str, int] | None:
    parts = [part.strip() for part in line.split("|", 4)]
    if len(parts) != 5:
        return None
    timestamp, level, service, latency, _message = parts
    level = level.upper()
    if not TIMESTAMP.fullmatch(timestamp) or level not in LEVELS:
        return None
    if not service or not LATENCY.fullmatch(latency):
        return None
    return timestamp, level, service, int(latency)


def summarize_text(text: str) -> dict:
    """The statistics ``python3 -m logparse`` must print for a file holding ``text``."""
    entries = []
    malformed = 0
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        entry = _parse_line(line)
        if entry is None:
            malformed += 1
        else:
            entries.append(entry)
    by_level = {level: 0 for level in LEVELS}
    by_service: dict[str, int] = {}
    for _timestamp, level, service, _latency in entries:
        by_level[level] += 1
        by_service[service] = by_service.get(service, 0) + 1
    latencies = [entry[3] for entry in entries]
    timestamps = [entry[0] for entry in entries]
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
