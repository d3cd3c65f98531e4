"""Lenient parsing of the model's JSON turn; every problem becomes feedback the model sees next turn.

Small models wrap JSON in prose or code fences, leave trailing commas, or drop fields: we recover what we can
(with a warning) and only reject a turn when no command list can be recovered.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

DEFAULT_DURATION_SEC = 1.0
MAX_DURATION_SEC = 60.0

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


@dataclass(frozen=True)
class Command:
    keystrokes: str
    duration_sec: float = DEFAULT_DURATION_SEC


@dataclass
class Turn:
    analysis: str = ""
    plan: str = ""
    commands: list[Command] = field(default_factory=list)
    task_complete: bool = False
    warnings: list[str] = field(default_factory=list)


class TurnParseError(ValueError):
    """The reply held no usable turn; ``str(exc)`` is the corrective feedback sent back to the model."""


def _candidates(text: str) -> list[str]:
    """Plausible JSON texts, most likely first: fenced blocks, then the outermost braces."""
    found = [m.group(1).strip() for m in _FENCE.finditer(text)]
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        found.append(text[start : end + 1])
    return found


def _load_object(text: str) -> tuple[dict[str, Any], list[str]]:
    warnings: list[str] = []
    stripped = text.strip()
    if not stripped.startswith("{") or not stripped.endswith("}"):
        warnings.append("Extra text around the JSON object was ignored; reply with the JSON object only.")
    errors = []
    for candidate in _candidates(text):
        for variant in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                value = json.loads(variant)
            except json.JSONDecodeError as exc:
                errors.append(str(exc))
                continue
            if isinstance(value, dict):
                return value, warnings
    detail = f" ({errors[0]})" if errors else ""
    raise TurnParseError(
        "Your reply was not a valid JSON object" + detail + ". Reply with exactly one JSON object with the keys "
        '"analysis", "plan", "commands" (a list of {"keystrokes": str, "duration": seconds}) and "task_complete".'
    )


def _command(index: int, raw: Any, warnings: list[str]) -> Command:
    if isinstance(raw, str):
        warnings.append(f"commands[{index}] was a string; use an object with keystrokes and duration.")
        return Command(raw)
    if not isinstance(raw, dict) or not isinstance(raw.get("keystrokes"), str):
        raise TurnParseError(f'commands[{index}] must be an object with a string "keystrokes" field.')
    duration = raw.get("duration", DEFAULT_DURATION_SEC)
    if not isinstance(duration, int | float) or isinstance(duration, bool) or duration < 0:
        warnings.append(f"commands[{index}].duration was not a non-negative number; used {DEFAULT_DURATION_SEC}.")
        duration = DEFAULT_DURATION_SEC
    if duration > MAX_DURATION_SEC:
        warnings.append(f"commands[{index}].duration capped at {MAX_DURATION_SEC:.0f} s; poll again if needed.")
        duration = MAX_DURATION_SEC
    return Command(raw["keystrokes"], float(duration))


def _is_true(value: Any) -> bool:
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def parse_turn(text: str) -> Turn:
    """Parse one reply; raises TurnParseError with feedback when nothing executable can be recovered."""
    data, warnings = _load_object(text)
    turn = Turn(warnings=warnings, task_complete=_is_true(data.get("task_complete", False)))
    for key in ("analysis", "plan"):
        value = data.get(key)
        if value is None:
            warnings.append(f'Missing "{key}" field.')
        else:
            setattr(turn, key, value if isinstance(value, str) else json.dumps(value))
    raw_commands = data.get("commands")
    if raw_commands is None:
        if not turn.task_complete:
            raise TurnParseError('Missing "commands" field: give a list of commands (it may be empty).')
        raw_commands = []
    if not isinstance(raw_commands, list):
        raise TurnParseError('"commands" must be a list of {"keystrokes": str, "duration": seconds} objects.')
    turn.commands = [_command(i, raw, warnings) for i, raw in enumerate(raw_commands)]
    return turn
