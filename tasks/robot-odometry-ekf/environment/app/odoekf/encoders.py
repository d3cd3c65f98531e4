# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Wheel travel from the motor controller's encoder counters.

The counters are free-running unsigned integers of ``encoder_bits`` bits that wrap around; a tick delta is the
difference of two readings taken modulo 2**bits into [-2**(bits-1), 2**(bits-1)). A counter mounted mirrored
runs down when its wheel drives forward (``encoder_sign`` -1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import RobotConfig
from .logfile import EncoderRecord


def tick_delta(previous: int, current: int, bits: int) -> int:
    return current - previous


@dataclass
class WheelStep:
    left_ticks: int
    right_ticks: int
    left: float  # m of wheel travel, forward positive
    right: float

    @property
    def parked(self) -> bool:
        return self.left_ticks == 0 and self.right_ticks == 0

    @property
    def distance(self) -> float:
        return 0.5 * (self.left + self.right)


class EncoderTracker:
    """Turns successive encoder records into wheel travel between them."""

    def __init__(self, config: RobotConfig) -> None:
        self.config = config
        self.last: EncoderRecord | None = None

    def step(self, record: EncoderRecord) -> WheelStep | None:
        """Wheel travel since the previous record; None for the first one."""
        previous, self.last = self.last, record
        if previous is None:
            return None
        cfg = self.config
        if record.seq != previous.seq + 1:  # lost frames: resynchronise on this reading
            return WheelStep(0, 0, 0.0, 0.0)
        lt = tick_delta(previous.left, record.left, cfg.encoder_bits)
        rt = tick_delta(previous.right, record.right, cfg.encoder_bits)
        return WheelStep(lt, rt, lt * cfg.metres_per_tick, rt * cfg.metres_per_tick)
