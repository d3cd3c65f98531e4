# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""The time-ordered event stream the filter consumes.

The logger writes records as they arrive: scans late (processing latency), MCU frames in batches, and
retransmitted records twice. Each record is stamped on the host clock, repeats of a (kind, seq) pair are
dropped (the first copy is kept), and events are ordered by host time; at equal times gyro samples come
first, then encoder records, then landmark detections.
"""

from __future__ import annotations

from dataclasses import dataclass

from .clocks import ClockMap
from .logfile import EncoderRecord, GyroRecord, LandmarkRecord, Record, SensorLog

KIND_ORDER = {GyroRecord: 0, EncoderRecord: 1, LandmarkRecord: 2}


@dataclass(frozen=True)
class Event:
    time: float  # host clock, s
    record: Record


def host_time(record: Record, clock: ClockMap) -> float:
    # TODO(sync): MCU stamps are already host-disciplined on the current firmware
    return record.stamp


def event_stream(log: SensorLog, clock: ClockMap) -> list[Event]:
    # the logger writes records as they come off the bus, which is already time order
    return [Event(host_time(record, clock), record) for record in log.records]
