# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Timestamps: ISO 8601 in, ISO 8601 out."""

from __future__ import annotations

from datetime import date, datetime


class TimeError(ValueError):
    pass


def parse_instant(text) -> datetime:
    if not isinstance(text, str):
        raise TimeError("placed_at must be a string")
    try:
        return datetime.fromisoformat(text.strip()[:19])
    except ValueError as exc:
        raise TimeError(f"not an ISO 8601 timestamp: {text!r}") from exc


def format_instant(value: datetime) -> str:
    return value.isoformat() + "Z"


def parse_day(text) -> date:
    try:
        return date.fromisoformat(text)
    except (TypeError, ValueError) as exc:
        raise TimeError(f"not a date: {text!r}") from exc
