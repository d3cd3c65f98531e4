# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Robot geometry and sensor noise, taken from a log's header (fleet defaults fill what a header leaves out)."""

from __future__ import annotations

import math
from dataclasses import dataclass

# Fleet defaults (AMR-series base, scanner on the centre line). Every log header states its robot's own values.
DEFAULTS = {
    "wheel_radius_m": 0.0762,
    "wheel_base_m": 0.42,
    "ticks_per_rev": 2048.0,
    "encoder_bits": 32,
    "encoder_sign": "1 1",
    "gyro_units": "rad/s",
    "sensor_offset_m": 0.0,
    "initial_pose": "0 0 0",
    "initial_sigma": "0.05 0.05 0.02",
    "sigma_wheel": 0.006,
    "sigma_gyro_rad_s": 0.004,
    "sigma_bias0_rad_s": 0.03,
    "bias_walk_rad_s": 2e-4,
    "sigma_range_m": 0.03,
    "sigma_bearing_rad": 0.012,
}

GYRO_UNITS = {"rad/s": 1.0, "deg/s": math.pi / 180.0, "dps": math.pi / 180.0}


class ConfigError(ValueError):
    """A header value the filter cannot use."""


@dataclass(frozen=True)
class RobotConfig:
    wheel_radius: float  # m
    wheel_base: float  # m, distance between the wheel contact points
    ticks_per_rev: float
    encoder_bits: int
    encoder_sign: tuple[float, float]  # (left, right): -1 for a counter that runs down when driving forward
    gyro_scale: float  # header gyro units -> rad/s
    sensor_offset: float  # m, scanner ahead of the axle centre
    initial_pose: tuple[float, float, float]
    initial_sigma: tuple[float, float, float]
    sigma_wheel: float  # sqrt(m): var(wheel travel) = sigma_wheel^2 * |travel|
    sigma_gyro: float  # rad/s, one gyro sample
    sigma_bias0: float  # rad/s, prior on the gyro bias
    bias_walk: float  # rad/s per sqrt(s)
    sigma_range: float  # m
    sigma_bearing: float  # rad

    @property
    def metres_per_tick(self) -> float:
        return 2.0 * math.pi * self.wheel_radius / self.ticks_per_rev


def _floats(text: str, n: int, key: str) -> tuple[float, ...]:
    values = tuple(float(v) for v in str(text).replace(",", " ").split())
    if len(values) != n:
        raise ConfigError(f"header {key}: expected {n} numbers, got {text!r}")
    return values


def from_header(header: dict[str, str]) -> RobotConfig:
    merged = dict(DEFAULTS)
    merged.update(header)
    units = str(merged["gyro_units"]).strip().lower()
    if units not in GYRO_UNITS:
        raise ConfigError(f"header gyro_units: unknown unit {units!r}")
    bits = int(merged["encoder_bits"])
    if not 8 <= bits <= 64:
        raise ConfigError(f"header encoder_bits: {bits} is not a counter width")
    return RobotConfig(
        wheel_radius=float(merged["wheel_radius_m"]),
        wheel_base=float(merged["wheel_base_m"]),
        ticks_per_rev=float(merged["ticks_per_rev"]),
        encoder_bits=bits,
        encoder_sign=_floats(merged["encoder_sign"], 2, "encoder_sign"),
        gyro_scale=GYRO_UNITS[units],
        sensor_offset=float(merged["sensor_offset_m"]),
        initial_pose=_floats(merged["initial_pose"], 3, "initial_pose"),
        initial_sigma=_floats(merged["initial_sigma"], 3, "initial_sigma"),
        sigma_wheel=float(merged["sigma_wheel"]),
        sigma_gyro=float(merged["sigma_gyro_rad_s"]),
        sigma_bias0=float(merged["sigma_bias0_rad_s"]),
        bias_walk=float(merged["bias_walk_rad_s"]),
        sigma_range=float(merged["sigma_range_m"]),
        sigma_bearing=float(merged["sigma_bearing_rad"]),
    )
