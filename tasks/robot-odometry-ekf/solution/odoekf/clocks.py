# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""MCU clock -> host clock.

Encoder and gyro records carry the motor controller's clock; landmark detections carry the host's. The logger
writes SYN pairs (host time, MCU time) read at the same instant. The map is the least-squares line
host = a + c * mcu through all pairs: one pair gives a pure offset (c = 1), none the identity.
"""

from __future__ import annotations

from dataclasses import dataclass

from .logfile import SyncRecord


@dataclass(frozen=True)
class ClockMap:
    host_ref: float  # host time at the reference point
    mcu_ref: float  # MCU time at the reference point
    rate: float  # host seconds per MCU second

    @classmethod
    def identity(cls) -> "ClockMap":
        return cls(0.0, 0.0, 1.0)

    @classmethod
    def fit(cls, pairs: list[SyncRecord]) -> "ClockMap":
        if not pairs:
            return cls.identity()
        n = len(pairs)
        # centred sums: the stamps are ~1e9 s while the offsets that matter are milliseconds
        mcu_mean = sum(p.mcu for p in pairs) / n
        host_mean = sum(p.host for p in pairs) / n
        sxx = sum((p.mcu - mcu_mean) ** 2 for p in pairs)
        sxy = sum((p.mcu - mcu_mean) * (p.host - host_mean) for p in pairs)
        rate = sxy / sxx if n >= 2 and sxx > 0.0 else 1.0
        return cls(host_mean, mcu_mean, rate)

    def to_host(self, mcu_time: float) -> float:
        return self.host_ref + self.rate * (mcu_time - self.mcu_ref)
