# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Run the filter over a whole log.

Events are consumed in host-time order. Gyro samples are collected until the next encoder record closes the
interval they fall in; that record triggers the prediction (or, when neither wheel moved, a zero-velocity
update of the gyro bias with every collected sample). Landmark detections correct the current estimate when
they arrive. The pose after each encoder record's interval is one row of the track.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .clocks import ClockMap
from .config import RobotConfig, from_header
from .ekf import PoseFilter
from .encoders import EncoderTracker
from .landmarks import GATE_CHI2, LandmarkMap, innovation, nearest_landmark, predict_measurement
from .logfile import EncoderRecord, GyroRecord, LandmarkRecord, SensorLog
from .motion import propagate
from .streams import event_stream


@dataclass
class RunStats:
    encoder_records: int = 0
    gyro_samples: int = 0
    detections: int = 0
    accepted: int = 0
    gated: int = 0
    parked_intervals: int = 0
    wheel_heading_intervals: int = 0
    notes: list[str] = field(default_factory=list)


class Localizer:
    def __init__(self, config: RobotConfig, lmap: LandmarkMap) -> None:
        self.cfg = config
        self.map = lmap
        self.filter = PoseFilter(config.initial_pose, config.initial_sigma, config.sigma_bias0)
        self.encoders = EncoderTracker(config)
        self.R = np.diag([config.sigma_range ** 2, config.sigma_bearing ** 2])
        self.rates: list[float] = []
        self.last_time: float | None = None
        self.stats = RunStats()

    @property
    def started(self) -> bool:
        return self.last_time is not None

    def on_gyro(self, record: GyroRecord) -> None:
        if self.started:  # samples before the first encoder record belong to no interval
            self.rates.append(record.rate * self.cfg.gyro_scale)
            self.stats.gyro_samples += 1

    def on_encoder(self, time: float, record: EncoderRecord):
        self.stats.encoder_records += 1
        step = self.encoders.step(record)
        if step is None:
            self.last_time, self.rates = time, []
            return (record.seq, time, *self.filter.pose)
        dt = time - self.last_time
        self.last_time = time
        rates, self.rates = self.rates, []
        if step.parked:
            self.stats.parked_intervals += 1
            self.filter.add_bias_walk(self.cfg.bias_walk ** 2 * dt)
            for rate in rates:
                self.filter.observe_bias(rate, self.cfg.sigma_gyro)
        else:
            if not rates:
                self.stats.wheel_heading_intervals += 1
            self.filter.predict(*propagate(self.filter.s, step, rates, dt, self.cfg))
            self.filter.add_bias_walk(self.cfg.bias_walk ** 2 * dt)
        return (record.seq, time, *self.filter.pose)

    def on_landmark(self, record: LandmarkRecord) -> None:
        if not self.started:
            return
        self.stats.detections += 1
        z = (record.range, record.bearing)
        f = self.filter
        if record.ident != 0 and record.ident in self.map.by_id:
            mark = self.map.by_id[record.ident]
        else:
            index = nearest_landmark(f.s, f.P, z, self.map, self.cfg.sensor_offset, self.R)
            if index is None:
                return
            mark = self.map.landmarks[index]
        h, H = predict_measurement(f.s, mark.x, mark.y, self.cfg.sensor_offset)
        nu = innovation(z, h)
        d2, S_inv = f.innovation_stats(H, nu, self.R)
        if d2 > GATE_CHI2:
            self.stats.gated += 1
            return
        f.correct(H, nu, self.R, S_inv)
        self.stats.accepted += 1


def localize(log: SensorLog, lmap: LandmarkMap) -> tuple[list[tuple], RunStats]:
    config = from_header(log.header)
    clock = ClockMap.fit(log.syncs)
    loc = Localizer(config, lmap)
    rows = []
    for event in event_stream(log, clock):
        record = event.record
        if isinstance(record, GyroRecord):
            loc.on_gyro(record)
        elif isinstance(record, EncoderRecord):
            rows.append(loc.on_encoder(event.time, record))
        elif isinstance(record, LandmarkRecord):
            loc.on_landmark(record)
    return rows, loc.stats
