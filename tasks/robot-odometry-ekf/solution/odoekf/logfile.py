# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Reader for the logger's ``.odolog`` files.

A log is a block of ``# key: value`` header lines followed by one record per line, whitespace separated:

    ENC <mcu_time> <seq> <left_count> <right_count>
    GYR <mcu_time> <seq> <rate>
    LMK <host_time> <seq> <id> <range_m> <bearing_rad>
    SYN <host_time> <mcu_time>

Records are kept in file order; ordering by time and dropping repeats is the event stream's job
(``odoekf.streams``). Lines that cannot be parsed are skipped and counted in ``SensorLog.skipped``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class EncoderRecord:
    stamp: float  # MCU clock, s
    seq: int
    left: int  # raw counter values as the motor controller reports them
    right: int


@dataclass(frozen=True)
class GyroRecord:
    stamp: float  # MCU clock, s
    seq: int
    rate: float  # yaw rate in the header's gyro_units


@dataclass(frozen=True)
class LandmarkRecord:
    stamp: float  # host clock, s
    seq: int
    ident: int  # surveyed landmark id, 0 when the detector could not read one
    range: float  # m, from the scanner
    bearing: float  # rad, counter-clockwise from the robot's heading


@dataclass(frozen=True)
class SyncRecord:
    host: float
    mcu: float


Record = EncoderRecord | GyroRecord | LandmarkRecord


@dataclass
class SensorLog:
    header: dict[str, str] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)  # file order
    syncs: list[SyncRecord] = field(default_factory=list)
    skipped: int = 0

    def of_kind(self, kind: type) -> list:
        return [r for r in self.records if isinstance(r, kind)]


def parse_ident(token: str) -> int:
    """Landmark id field: a positive survey id, or 0 / '-' / '?' for an unread detection."""
    if token in ("-", "?"):
        return 0
    return int(token)


def _parse_record(parts: list[str]):
    kind = parts[0].upper()
    if kind == "ENC" and len(parts) >= 5:
        return EncoderRecord(float(parts[1]), int(parts[2]), int(parts[3]), int(parts[4]))
    if kind == "GYR" and len(parts) >= 4:
        return GyroRecord(float(parts[1]), int(parts[2]), float(parts[3]))
    if kind == "LMK" and len(parts) >= 6:
        return LandmarkRecord(float(parts[1]), int(parts[2]), parse_ident(parts[3]), float(parts[4]),
                              float(parts[5]))
    if kind == "SYN" and len(parts) >= 3:
        return SyncRecord(float(parts[1]), float(parts[2]))
    raise ValueError(f"unknown record {parts[0]!r}")


def parse_log(text: str) -> SensorLog:
    log = SensorLog()
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            if ":" in body:
                key, value = body.split(":", 1)
                log.header[key.strip().lower()] = value.strip()
            continue
        try:
            record = _parse_record(line.split())
        except (ValueError, IndexError):
            log.skipped += 1
            continue
        if isinstance(record, SyncRecord):
            log.syncs.append(record)
        else:
            log.records.append(record)
    return log


def read_log(path: str | Path) -> SensorLog:
    return parse_log(Path(path).read_text(encoding="utf-8", errors="replace"))
