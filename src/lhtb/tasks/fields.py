"""The field types of task.toml's model: bounded numbers, users, env tables, one-line text, hosts, sizes.

Kept apart from the sections (tasks/config.py) so each module stays small; every type validates strictly and
names what is wrong (the loader adds the file and the key).
"""

from __future__ import annotations

import ipaddress
import math
import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

MAX_TIMEOUT_SEC = 7 * 24 * 3600  # a week: anything longer is a typo (milliseconds?) rather than a plan
MAX_CPUS = 1024  # the machine's own CPU count is checked when the task is loaded (tasks/loader.py)
MIN_MEMORY_MB = 6  # Docker refuses a smaller memory limit
MAX_MEMORY_MB = 16 * 1024 * 1024  # 16 TiB; the machine's physical memory is checked when the task is loaded
MAX_PIDS = 4 * 1024 * 1024  # Linux's largest pid_max
MAX_NAME_CHARS = 200
_USER = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63}(:[A-Za-z0-9_.][A-Za-z0-9_.-]{0,63})?")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SERVICE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_HOST_LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
_SIZE = re.compile(r"(.+?)([KMG])", re.IGNORECASE)
_MB_PER_UNIT = {"K": 1 / 1024, "M": 1, "G": 1024}

# lhtb's three Docker modes and Harbor's three policies; what each runs as is RUNS_AS.
NetworkMode = Literal["none", "bridge", "host", "no-network", "public", "allowlist"]
RUNS_AS = {"none": "none", "no-network": "none", "bridge": "bridge", "public": "bridge", "host": "host"}


def _user_name(value: object) -> object:
    """Harbor allows a user as a name or a uid (a TOML integer): both become the string Docker takes."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"a uid must be >= 0, got {value}")
        return str(value)
    if isinstance(value, str) and not _USER.fullmatch(value):
        raise ValueError(f"{value!r} is not a user name, uid or user:group")
    return value


def _env_table(value: dict[str, str]) -> dict[str, str]:
    for key, item in value.items():
        if not key or "=" in key or "\x00" in key:
            raise ValueError(f"{key!r} is not an environment variable name (empty, or holds '=' or NUL)")
        if "\x00" in item:
            raise ValueError(f"the value of {key!r} contains a NUL character")
    return value


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise ValueError("contains a NUL character")
    return value


def one_line(value: str) -> str:
    if _CONTROL.search(value):
        raise ValueError("contains a control character (newline, tab, NUL, ...)")
    if not value.strip():
        raise ValueError("is blank")
    return value


def _service(value: str) -> str:
    if not _SERVICE.fullmatch(value):
        raise ValueError(f"{value!r} is not a Docker Compose service name")
    return value


def _host(entry: str) -> str:
    """One allowlist entry, normalized: a hostname, ``*.suffix``, an IP address or a CIDR range."""
    host = entry.strip().lower().rstrip(".")
    try:
        if "/" in host:
            return ipaddress.ip_network(host, strict=True).compressed
        if ":" in host:
            return ipaddress.IPv6Address(host).compressed
    except ValueError:
        raise ValueError(f"allowed host {entry!r} is not an IP address or CIDR range") from None
    name = host.removeprefix("*.")
    if not name or not all(_HOST_LABEL.fullmatch(label) for label in name.split(".")):
        raise ValueError(f"allowed host {entry!r} is not a hostname, '*.suffix', IP address or CIDR range")
    return host


def _hosts(value: list[str] | None) -> list[str] | None:
    return None if value is None else [_host(entry) for entry in value]


def size_to_mb(size: str) -> int:
    """Harbor's deprecated size strings ("4G", "512M", "1024K") in MiB, as Harbor reads them."""
    match = _SIZE.fullmatch(size.strip())
    try:
        mb = float(match.group(1)) * _MB_PER_UNIT[match.group(2).upper()] if match else math.nan
    except ValueError:
        mb = math.nan
    if not math.isfinite(mb):
        raise ValueError(f"{size!r} is not a size like '4G', '512M' or '1024K'")
    return int(mb)


def lower(value: object) -> object:
    return value.lower() if isinstance(value, str) else value


def http_alias(value: object) -> object:
    return "streamable-http" if value == "http" else value


Seconds = Annotated[float, Field(gt=0, le=MAX_TIMEOUT_SEC, allow_inf_nan=False)]
Minutes = Annotated[float, Field(ge=0, le=MAX_TIMEOUT_SEC / 60, allow_inf_nan=False)]
Delay = Annotated[float, Field(ge=0, le=MAX_TIMEOUT_SEC, allow_inf_nan=False)]
User = Annotated[str | None, BeforeValidator(_user_name)]
EnvTable = Annotated[dict[str, str], AfterValidator(_env_table)]
Text = Annotated[str, AfterValidator(_no_nul)]
Line = Annotated[str, AfterValidator(one_line)]
Service = Annotated[str, AfterValidator(_service)]
Hosts = Annotated[list[str] | None, AfterValidator(_hosts)]


class StrictSection(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OpenSection(BaseModel):
    """A section Harbor types as free text: unknown keys are kept (``model_extra``), known ones typed."""

    model_config = ConfigDict(extra="allow", strict=True)
