"""Turn what a verifier left in its output directory into a validated reward, or a :class:`VerifierError`.

Read in order: ``reward.json`` in the ``lhtb.reward/1`` schema, ``reward.json`` in Harbor's flat form
(``{"reward": x}``, or several named rewards: :func:`harbor_rewards`), then Harbor's ``reward.txt``. A missing,
empty, malformed, NaN or out-of-range reward is always an error, never a silent 0.
"""

from __future__ import annotations

import json
import math
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from lhtb.errors import VerifierError
from lhtb.results.models import REWARD_SCHEMA, RewardFile, Subtask

REWARD_JSON = "reward.json"
REWARD_TXT = "reward.txt"
MAX_REWARD_FILE_BYTES = 5 * 1024 * 1024
MAX_LISTED = 10  # entries of the output directory named when no reward file is found
RewardSource = Literal["lhtb.reward/1", "harbor-json", "harbor-txt"]
# A plain decimal number; float() alone would also take "nan", "inf" and "1_0".
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


@dataclass(frozen=True)
class ParsedReward:
    reward: float
    subtasks: list[Subtask]
    source: RewardSource


def parse_reward_dir(output_dir: Path, *, shown_as: str | None = None, refused: Sequence[str] = ()) -> ParsedReward:
    """The reward in ``output_dir``; ``reward.json`` wins over ``reward.txt`` when both exist.

    ``shown_as`` names the directory in messages (the verifier's ``/logs/verifier`` rather than the host copy);
    ``refused`` lists what collecting the output dropped, as ``name: reason`` lines (``tarsafe``'s form), so a
    reward file refused on the way out is reported as what it was, not as missing.
    """
    shown = shown_as or str(output_dir)
    refusals = {name: reason for name, _, reason in (line.partition(": ") for line in refused)}
    for name in (REWARD_JSON, REWARD_TXT):
        path = output_dir / name
        if name in refusals:
            raise VerifierError(_refused_message(f"{shown.rstrip('/')}/{name}", refusals[name]))
        if path.exists() or path.is_symlink():
            return _parse_json(path) if name == REWARD_JSON else _parse_txt(path)
    raise VerifierError(
        f"{shown}: the verifier wrote neither {REWARD_JSON} nor {REWARD_TXT}; "
        "it must write one (lhtb.grading's Scorecard.write() does)" + _what_was_found(output_dir, refused)
    )


def _refused_message(where: str, reason: str) -> str:
    for pattern, phrase in _REFUSAL_PHRASES:
        if matched := pattern.fullmatch(reason):
            return f"{where} {phrase.format(*matched.groups())} (refused: reward files must be regular files)"
    return f"{where} was refused when the verifier output was collected: {reason}"


# tarsafe's reasons for dropping a member, said as what the reward file was.
_REFUSAL_PHRASES = [
    (re.compile(r"symlink to absolute path (.*)"), "is a symlink to {}"),
    (re.compile(r"symlink escaping the root \((.*)\)"), "is a symlink to {}, outside the output directory"),
    (re.compile(r"hard link outside the root \((.*)\)"), "is a hard link to {}"),
    (re.compile(r"special file \((.*)\)"), "is a special file ({}), not a regular file"),
]


def _what_was_found(output_dir: Path, refused: Sequence[str]) -> str:
    """What the directory held instead (bounded), with a hint for a near miss such as ``'reward.txt\\r'``."""
    try:
        entries = sorted(output_dir.iterdir())[: MAX_LISTED + 1] if output_dir.is_dir() else []
    except OSError:
        entries = []
    hints = []
    for entry in entries:
        if entry.name.rstrip("\r") in (REWARD_JSON, REWARD_TXT) and entry.name.endswith("\r"):
            hints.append(f"found {entry.name!r}: a CRLF line ending in test.sh? (run dos2unix on it)")
        elif entry.name.strip().casefold() in (REWARD_JSON, REWARD_TXT):
            hints.append(f"found {entry.name!r}: the name must be exactly {entry.name.strip().lower()}")
    if entries:
        listed = ", ".join(_shown_name(e) for e in entries[:MAX_LISTED])
        more = " and more" if len(entries) > MAX_LISTED else ""
        held = f"the directory held: {listed}{more}"
    else:
        held = "the directory was empty"
    if refused:
        listed = "; ".join(_shown(line) for line in refused[:MAX_LISTED])
        held += f"; refused when collected: {listed}" + (" and more" if len(refused) > MAX_LISTED else "")
    return "; " + "; ".join([*hints, held])


def _shown_name(entry: Path) -> str:
    """A name as data (quoted when odd), with the kind of anything but a regular file."""
    name = entry.name if entry.name.isprintable() and entry.name.strip() == entry.name else repr(entry.name)
    kind = _file_kind(entry)
    return _shown(name if kind == "regular file" else f"{name} ({kind})")


def _shown(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _file_kind(path: Path) -> str:
    try:
        mode = path.lstat().st_mode
    except OSError:
        return "unreadable"
    kinds = [
        (stat.S_ISREG, "regular file"),
        (stat.S_ISLNK, "symlink"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ]
    return next((kind for test, kind in kinds if test(mode)), "special file")


def _read_text(path: Path) -> str:
    """The file's text, refusing links, non-files, files over the size limit, non-UTF-8 and empty files."""
    if path.is_symlink():
        target = _shown(repr(str(path.readlink())))
        raise VerifierError(f"{path.name}: is a symlink to {target} (refused: reward files must be regular files)")
    if not path.is_file():
        kind = _file_kind(path)
        raise VerifierError(
            f"{path.name}: is not a regular file but a {kind} (refused: reward files must be regular files)"
        )
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_REWARD_FILE_BYTES + 1)
    except OSError as exc:
        raise VerifierError(f"{path.name}: cannot be read: {exc.strerror or exc}") from exc
    if len(data) > MAX_REWARD_FILE_BYTES:
        raise VerifierError(
            f"{path.name}: larger than the {MAX_REWARD_FILE_BYTES // (1024 * 1024)} MB limit; "
            "keep per-subtask details short"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise VerifierError(f"{path.name}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not text.strip():
        raise VerifierError(f"{path.name}: file is empty")
    return text


def _parse_json(path: Path) -> ParsedReward:
    text = _read_text(path)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise VerifierError(f"{path.name}: invalid JSON: {exc}") from None
    except RecursionError:
        raise VerifierError(f"{path.name}: invalid JSON: nested too deeply") from None
    if not isinstance(document, dict):
        raise VerifierError(f"{path.name}: expected a JSON object, got {_json_type(document)}")
    if "schema" in document:
        return _parse_lhtb_reward(path, document)
    return _parse_harbor_json(path, document)


def _parse_lhtb_reward(path: Path, document: dict[str, object]) -> ParsedReward:
    schema = document["schema"]
    if schema != REWARD_SCHEMA:
        raise VerifierError(f"{path.name}: unsupported schema {schema!r}; expected {REWARD_SCHEMA!r}")
    try:
        # strict: a score of "1" or true is a bug in the verifier, not a number to coerce
        reward_file = RewardFile.model_validate(document, strict=True)
    except ValidationError as exc:
        raise VerifierError(f"{path.name}: {_describe(exc)}") from None
    subtasks = list(reward_file.subtasks)
    return ParsedReward(reward=reward_file.reward, subtasks=subtasks, source="lhtb.reward/1")


def _parse_harbor_json(path: Path, document: dict[str, object]) -> ParsedReward:
    if not document:
        raise VerifierError(
            f'{path.name}: an empty object; write {{"schema": "{REWARD_SCHEMA}", ...}} or Harbor\'s flat '
            '{"reward": x} (or several named rewards)'
        )
    for key, value in document.items():
        if key != "reward" and not _is_number(value):
            raise VerifierError(
                f"{path.name}: key {key!r} must be a number in Harbor's flat form, got {_json_type(value)} "
                f'(for subtasks, add "schema": "{REWARD_SCHEMA}")'
            )
    if "reward" in document:  # the headline; the other keys may be any finite numbers (counts, timings)
        rewards = {"reward": _check_reward(document["reward"], f"{path.name}: reward")}
        extra = {key: _check_finite(value, f"{path.name}: key {key!r}") for key, value in document.items()}
        rewards |= {key: value for key, value in extra.items() if 0 <= value <= 1}
        noted = {key: value for key, value in extra.items() if key not in rewards}
    else:  # the mean of the keys is the headline: each must be a reward
        rewards = {key: _check_reward(value, f"{path.name}: key {key!r}") for key, value in document.items()}
        noted = {}
    detail = f"Harbor flat {path.name}" + "".join(f"; {key} = {value:g}" for key, value in sorted(noted.items()))
    reward, subtasks = harbor_rewards(rewards, detail)
    return ParsedReward(reward=reward, subtasks=subtasks, source="harbor-json")


def harbor_rewards(rewards: dict[str, float], detail: str) -> tuple[float, list[Subtask]]:
    """The headline reward of Harbor's flat rewards mapping (values in [0, 1]), every key kept as a subtask.

    Harbor's metrics average each key on its own and name none the headline; lhtb needs one number per trial:
    the ``reward`` key when there is one (the other keys are kept with weight 0: shown, not counted), else the
    mean of all keys (each weight 1, so the reward is still sum(w*s)/sum(w)).
    """
    if "reward" in rewards:
        weights = {key: 1.0 if key == "reward" else 0.0 for key in rewards}
        reward = rewards["reward"]
    else:
        weights = dict.fromkeys(rewards, 1.0)
        reward = math.fsum(rewards.values()) / len(rewards)
    subtasks = [
        Subtask(name=key or "(empty key)", weight=weights[key], score=value, kind="continuous", detail=detail)
        for key, value in rewards.items()
    ]
    return reward, subtasks


def _parse_txt(path: Path) -> ParsedReward:
    text = _read_text(path).strip()
    if not _DECIMAL.fullmatch(text):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise VerifierError(f"{path.name}: expected a single finite number in [0, 1], got {shown!r}")
    reward = _check_reward(float(text), f"{path.name}: reward")
    subtask = _whole_task(reward, f"Harbor {path.name}")
    return ParsedReward(reward=reward, subtasks=[subtask], source="harbor-txt")


def _whole_task(reward: float, detail: str) -> Subtask:
    """The one synthetic subtask standing for a Harbor-style single reward."""
    return Subtask(name="reward", weight=1.0, score=reward, kind="continuous", visibility="hidden", detail=detail)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_finite(value: object, where: str) -> float:
    if not _is_number(value):
        raise VerifierError(f"{where} must be a number, got {_json_type(value)} {value!r}")
    try:
        number = float(value)  # type: ignore[arg-type]
    except OverflowError:  # an integer beyond any float
        raise VerifierError(f"{where} must be finite, got an integer of {len(str(value))} digits") from None
    if not math.isfinite(number):
        raise VerifierError(f"{where} must be finite, got {value}")
    return number


def _check_reward(value: object, where: str) -> float:
    reward = _check_finite(value, where)
    if not 0 <= reward <= 1:
        raise VerifierError(f"{where} must be in [0, 1], got {value}")
    return reward


def _json_type(value: object) -> str:
    names = {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}
    return "null" if value is None else names.get(type(value), type(value).__name__)


def _describe(exc: ValidationError) -> str:
    """Pydantic errors as 'loc.path: message' joined by '; ' (e.g. 'subtasks.2.score: score must be ...')."""
    parts = []
    for error in exc.errors(include_url=False):
        location = ".".join(str(part) for part in error["loc"])
        message = error["msg"].removeprefix("Value error, ")
        shown = error.get("input")
        if error["type"] != "value_error" and isinstance(shown, (bool, int, float, str)):
            message += f", got {shown!r:.60}"
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts)
