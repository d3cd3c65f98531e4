# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Simulate a differential-drive warehouse robot doing laps around a shelf block and write what its logger
would have recorded: a sensor log (.odolog), the landmark map (.csv) and the ground-truth pose at every encoder
record (.truth.csv).

    python3 simlog.py OUT_DIR NAME SEED [--preset clean|fleet|patchy]

Every random draw goes through ``random.Random.random()`` (Box-Muller for normal deviates), so a seed gives the
same log on every machine. ``make_run(rng, options)`` is the library entry point; ``options`` is a dict whose
keys are documented in DEFAULTS below.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import numpy as np

SIM_DT = 0.001  # s, the grid the true motion is integrated on
ENC_PERIOD = 0.04  # s of MCU time (25 Hz)
GYR_PERIOD = 0.01  # s of MCU time (100 Hz)
GYR_PHASE = 0.005  # gyro samples sit between encoder samples
SCAN_PERIOD = 0.2  # s of host time (5 Hz landmark scans)
SYN_PERIOD = 1.0  # s of host time
EPOCH0 = 1_765_000_000.0

DEFAULTS = {
    "laps": 2,  # laps of the shelf block (each one a net turn of 2 pi)
    "encoder_bits": 32,  # 16: counters wrap (and start near the wrap point)
    "right_sign": 1,  # -1: the right encoder counts down when its wheel drives forward
    "gyro_units": "rad/s",  # or "deg/s"
    "calibration": "nominal",  # "varied": radius, base and ticks per revolution of another robot
    "mcu_clock": "synced",  # "boot": MCU stamps count from power-on and drift against the host clock
    "reorder": False,  # records written in arrival order (scan latency, batched MCU frames, retransmits)
    "duplicates": 0.0,  # share of records written twice
    "unknown_ids": 0.0,  # share of landmarks that are plain reflectors (reported with id 0)
    "misread": 0.0,  # share of tag detections reported with another landmark's id
    "outliers": 0.0,  # spurious detections per scan (mean)
    "gyro_dropouts": 0,  # windows of 2-4 s without gyro records
    "scan_blackouts": 0,  # windows of 6-10 s without landmark records
    "enc_loss": 0.0,  # share of encoder records lost
    "enc_bursts": 0,  # bursts of 0.3-0.8 s of lost encoder records
    "bias_drift": 0.0,  # rad/s the gyro bias wanders over the run (warm-up drift)
    "scanner_warmup": 0.0,  # s after the robot starts moving before the scanner reports anything
    "reverse": True,  # back out of a pick station once per lap
}

NOISE = {
    "sigma_wheel": 0.006,  # sqrt(m): var(wheel travel) = sigma_wheel^2 |travel|
    "sigma_gyro": 0.004,  # rad/s per sample
    "sigma_bias0": 0.03,  # rad/s prior on the bias
    "bias_walk": 2e-4,  # rad/s per sqrt(s)
    "sigma_range": 0.03,  # m
    "sigma_bearing": 0.012,  # rad
}


class Normal:
    """Standard normal deviates from rng.random() only (Box-Muller), stable across Python versions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.spare: float | None = None

    def __call__(self) -> float:
        if self.spare is not None:
            value, self.spare = self.spare, None
            return value
        u1 = 1.0 - self.rng.random()
        u2 = self.rng.random()
        radius = math.sqrt(-2.0 * math.log(u1))
        self.spare = radius * math.sin(2.0 * math.pi * u2)
        return radius * math.cos(2.0 * math.pi * u2)


def uniform(rng: random.Random, low: float, high: float) -> float:
    return low + (high - low) * rng.random()


def wrap(angle: float) -> float:
    """Angle in (-pi, pi]."""
    a = math.fmod(angle + math.pi, 2.0 * math.pi)
    if a <= 0.0:
        a += 2.0 * math.pi
    return a - math.pi


# ---------------------------------------------------------------------------------------------------------------
# route and true motion


def plan_route(rng: random.Random, opts: dict) -> list[tuple[float, float, float]]:
    """Constant (v, w, duration) commands: a parked start, then laps of a rounded rectangle with pick stops."""
    width, height = uniform(rng, 12.0, 20.0), uniform(rng, 6.0, 10.0)
    radius = uniform(rng, 1.0, 1.8)
    turn = 1.0 if rng.random() < 0.5 else -1.0
    segments = [(0.0, 0.0, uniform(rng, 3.0, 4.0))]
    for lap in range(opts["laps"]):
        stop_side = int(rng.random() * 4)
        for side in range(4):
            length = (width if side % 2 == 0 else height) + uniform(rng, -0.4, 0.4)
            speed = uniform(rng, 0.9, 1.5)
            if side == stop_side:
                first = length * uniform(rng, 0.3, 0.6)
                segments.append((speed, 0.0, first / speed))
                segments.append((0.0, 0.0, uniform(rng, 1.5, 3.0)))
                if opts["reverse"]:
                    back = uniform(rng, 0.8, 1.5)
                    segments.append((-0.4, 0.0, back / 0.4))
                    segments.append((0.0, 0.0, uniform(rng, 0.5, 1.0)))
                    segments.append((0.6, 0.0, back / 0.6))
                segments.append((speed, 0.0, (length - first) / speed))
            else:
                segments.append((speed, 0.0, length / speed))
            arc_speed = uniform(rng, 0.5, 0.8)
            arc_radius = radius * uniform(rng, 0.9, 1.1)
            omega = turn * arc_speed / arc_radius
            segments.append((arc_speed, omega, (math.pi / 2) / abs(omega)))
    segments.append((0.0, 0.0, uniform(rng, 1.0, 2.0)))
    return segments


def true_motion(rng: random.Random, segments: list, base: float) -> dict:
    """Integrate the commanded motion, smoothed by the drive's acceleration limits, on the SIM_DT grid."""
    v = np.concatenate([np.full(max(1, int(round(T / SIM_DT))), v0) for v0, _w, T in segments])
    w = np.concatenate([np.full(max(1, int(round(T / SIM_DT))), w0) for _v, w0, T in segments])
    kernel = np.ones(int(0.35 / SIM_DT)) / int(0.35 / SIM_DT)
    for _ in range(2):  # two box filters: a trapezoid ramp of about 0.7 s, no jump in acceleration
        v = np.convolve(v, kernel, mode="same")
        w = np.convolve(w, kernel, mode="same")
    v[np.abs(v) < 1e-9] = 0.0
    w[np.abs(w) < 1e-9] = 0.0
    # a slow steering wobble while driving (floor joints, controller): a few sinusoids scaled by speed
    t = np.arange(len(v)) * SIM_DT
    wobble = np.zeros_like(t)
    for _ in range(3):
        wobble += uniform(rng, 0.005, 0.02) * np.sin(2 * math.pi * uniform(rng, 0.05, 0.4) * t + uniform(rng, 0, 6.3))
    w = w + wobble * np.clip(np.abs(v), 0.0, 1.0)
    theta0 = uniform(rng, -math.pi, math.pi)
    theta = theta0 + np.concatenate([[0.0], np.cumsum(w[:-1] * SIM_DT)])
    mid = theta + 0.5 * w * SIM_DT
    x0, y0 = uniform(rng, 2.0, 6.0), uniform(rng, 2.0, 6.0)
    x = x0 + np.concatenate([[0.0], np.cumsum(v[:-1] * np.cos(mid[:-1]) * SIM_DT)])
    y = y0 + np.concatenate([[0.0], np.cumsum(v[:-1] * np.sin(mid[:-1]) * SIM_DT)])
    left = np.concatenate([[0.0], np.cumsum((v[:-1] - 0.5 * base * w[:-1]) * SIM_DT)])
    right = np.concatenate([[0.0], np.cumsum((v[:-1] + 0.5 * base * w[:-1]) * SIM_DT)])
    return {"t": t, "x": x, "y": y, "theta": theta, "w": w, "v": v, "left": left, "right": right}


def at(motion: dict, key: str, tau: float) -> float:
    """Linear interpolation of a motion channel at true time tau."""
    return float(np.interp(tau, motion["t"], motion[key]))


def place_landmarks(rng: random.Random, motion: dict, opts: dict) -> list[dict]:
    """Reflectors and tags on the shelf uprights either side of the route, at least 1.6 m apart."""
    x, y = motion["x"][::50], motion["y"][::50]
    path = np.stack([x, y], axis=1)
    step = np.hypot(np.diff(x), np.diff(y))
    arclen = np.concatenate([[0.0], np.cumsum(step)])
    lap_len = arclen[-1] / max(1, opts["laps"])
    marks: list[dict] = []
    s = uniform(rng, 0.5, 2.0)
    while s < lap_len * 1.02:
        i = int(np.searchsorted(arclen, s))
        i = min(i, len(x) - 2)
        heading = math.atan2(y[i + 1] - y[i], x[i + 1] - x[i])
        for side in (-1.0, 1.0):
            if rng.random() < 0.25:
                continue
            off = side * uniform(rng, 1.2, 3.0)
            along = uniform(rng, -0.8, 0.8)
            mx = x[i] + along * math.cos(heading) - off * math.sin(heading)
            my = y[i] + along * math.sin(heading) + off * math.cos(heading)
            if np.min(np.hypot(path[:, 0] - mx, path[:, 1] - my)) < 0.9:
                continue
            if any(math.hypot(m["x"] - mx, m["y"] - my) < 1.6 for m in marks):
                continue
            marks.append({"x": round(mx, 3), "y": round(my, 3)})
        s += uniform(rng, 2.5, 4.5)
    ids = list(range(1, len(marks) + 1))
    for k in range(len(ids) - 1, 0, -1):  # shuffled ids, as a site survey numbers them
        j = int(rng.random() * (k + 1))
        ids[k], ids[j] = ids[j], ids[k]
    for mark, ident in zip(marks, ids):
        mark["id"] = ident + 100
        mark["tag"] = rng.random() >= opts["unknown_ids"]
    return marks


# ---------------------------------------------------------------------------------------------------------------
# sensors


def robot_params(rng: random.Random, opts: dict) -> dict:
    if opts["calibration"] == "nominal":
        radius, base, ticks = 0.0762, 0.42, 2048
    else:
        radius = round(uniform(rng, 0.06, 0.1), 4)
        base = round(uniform(rng, 0.36, 0.56), 4)
        ticks = [1024, 4096, 4000, 3600][int(rng.random() * 4)]
    return {"wheel_radius_m": radius, "wheel_base_m": base, "ticks_per_rev": ticks,
            "sensor_offset_m": round(uniform(rng, 0.12, 0.3), 3)}


def make_run(rng: random.Random, options: dict | None = None) -> dict:
    """One simulated run: {"log": text, "map": text, "truth": text, "truth_rows": [(seq, t, x, y, th)], ...}."""
    opts = dict(DEFAULTS)
    opts.update(options or {})
    normal = Normal(rng)
    robot = robot_params(rng, opts)
    radius, base, ticks = robot["wheel_radius_m"], robot["wheel_base_m"], robot["ticks_per_rev"]
    offset = robot["sensor_offset_m"]
    motion = true_motion(rng, plan_route(rng, opts), base)
    duration = float(motion["t"][-1])
    marks = place_landmarks(rng, motion, opts)

    # clocks: host time = EPOCH0 + host0 + tau; MCU time = mcu0 + tau * (1 + drift)
    host0 = uniform(rng, 0.0, 86400.0)
    if opts["mcu_clock"] == "boot":
        mcu0, drift = uniform(rng, 40.0, 5000.0), uniform(rng, 150e-6, 600e-6) * (1 if rng.random() < 0.5 else -1)
        mcu0 = mcu0 - (mcu0 % 0.01) + 0.0
    else:
        mcu0, drift = EPOCH0 + host0, 0.0

    def host_of(tau: float) -> float:
        return EPOCH0 + host0 + tau

    def tau_of_mcu(mcu: float) -> float:
        return (mcu - mcu0) / (1.0 + drift)

    records: list[tuple[float, str]] = []  # (arrival host time, line)
    truth_rows = []
    bits = opts["encoder_bits"]
    modulus = 1 << bits
    ticks_per_m = ticks / (2 * math.pi * radius)
    if bits == 16:
        start_l = int(uniform(rng, 0.0, 1.0) * modulus)
        start_r = int(uniform(rng, 0.0, 1.0) * modulus)
    else:
        start_l, start_r = int(uniform(rng, 0, 5e5)), int(uniform(rng, 0, 5e5))
    right_sign = opts["right_sign"]
    lost = set()
    n_enc = int(duration / ENC_PERIOD) - 1
    for _ in range(opts["enc_bursts"]):
        first = int(uniform(rng, 0.1, 0.9) * n_enc)
        lost.update(range(first, first + int(uniform(rng, 0.3, 0.8) / ENC_PERIOD)))
    enc_seq0 = int(uniform(rng, 0, 50000))
    meas_l = meas_r = 0.0
    prev_l = prev_r = 0.0
    for k in range(n_enc):
        tau = k * ENC_PERIOD / (1.0 + drift) + 0.02
        mcu = mcu0 + tau * (1.0 + drift)
        true_l, true_r = at(motion, "left", tau), at(motion, "right", tau)
        dl, dr = true_l - prev_l, true_r - prev_r
        prev_l, prev_r = true_l, true_r
        meas_l += dl + NOISE["sigma_wheel"] * math.sqrt(abs(dl)) * normal()
        meas_r += dr + NOISE["sigma_wheel"] * math.sqrt(abs(dr)) * normal()
        if k > 0 and k < n_enc - 1 and (k in lost or rng.random() < opts["enc_loss"]):
            continue
        count_l = (start_l + math.floor(meas_l * ticks_per_m)) % modulus
        count_r = (start_r + right_sign * math.floor(meas_r * ticks_per_m)) % modulus
        seq = enc_seq0 + k
        records.append((host_of(tau), f"ENC {mcu:.6f} {seq} {count_l} {count_r}"))
        truth_rows.append((seq, host_of(tau), at(motion, "x", tau), at(motion, "y", tau),
                           wrap(at(motion, "theta", tau))))

    # gyro
    bias0 = uniform(rng, 0.004, 0.02) * (1 if rng.random() < 0.5 else -1)
    drift_dir = 1 if rng.random() < 0.5 else -1
    drift_tc = uniform(rng, 0.3, 0.6) * duration
    gaps = []
    turning = np.abs(motion["w"]) > 0.2
    turn_starts = [i * SIM_DT for i in np.flatnonzero(turning[1:] & ~turning[:-1]) + 1]
    for _ in range(opts["gyro_dropouts"]):  # the gyro drops out just before a turn
        start = turn_starts[int(rng.random() * len(turn_starts))] - uniform(rng, 0.3, 1.2)
        gaps.append((start, start + uniform(rng, 2.0, 4.0)))
    walk = 0.0
    scale = 180.0 / math.pi if opts["gyro_units"] == "deg/s" else 1.0
    gyr_seq0 = int(uniform(rng, 0, 50000))
    n_gyr = int(duration / GYR_PERIOD) - 1
    for j in range(n_gyr):
        tau = (j * GYR_PERIOD + GYR_PHASE) / (1.0 + drift) + 0.02
        walk += NOISE["bias_walk"] * math.sqrt(GYR_PERIOD) * normal() * 0.5
        bias = bias0 + walk + drift_dir * opts["bias_drift"] * (1.0 - math.exp(-tau / drift_tc))
        rate = at(motion, "w", tau) + bias + NOISE["sigma_gyro"] * normal()
        if any(a <= tau < b for a, b in gaps):
            continue
        mcu = mcu0 + tau * (1.0 + drift)
        records.append((host_of(tau), f"GYR {mcu:.6f} {gyr_seq0 + j} {rate * scale:.6f}"))

    # landmark scans (host clock), from the sensor mounted `offset` ahead of the axle centre
    blackouts = []
    if opts["scanner_warmup"] > 0:
        moving = np.flatnonzero(np.abs(motion["v"]) > 1e-3)
        blackouts.append((0.0, moving[0] * SIM_DT + opts["scanner_warmup"]))
    for _ in range(opts["scan_blackouts"]):
        start = uniform(rng, 0.15, 0.8) * duration
        blackouts.append((start, start + uniform(rng, 6.0, 10.0)))
    scan_seq = int(uniform(rng, 0, 50000))
    lmk_phase = uniform(rng, 0.0, SCAN_PERIOD)
    tag_ids = [m["id"] for m in marks if m["tag"]]
    n_scan = int((duration - 0.1) / SCAN_PERIOD)
    latency_mode = opts["reorder"]
    for s_i in range(1, n_scan):
        tau = s_i * SCAN_PERIOD + lmk_phase
        if any(a <= tau < b for a, b in blackouts):
            continue
        x, y, th = at(motion, "x", tau), at(motion, "y", tau), at(motion, "theta", tau)
        sx, sy = x + offset * math.cos(th), y + offset * math.sin(th)
        arrival = host_of(tau) + (uniform(rng, 0.05, 0.35) if latency_mode else 0.0)
        for mark in marks:
            dx, dy = mark["x"] - sx, mark["y"] - sy
            rng_true = math.hypot(dx, dy)
            if rng_true < 0.4 or rng_true > 9.0 or rng.random() > 0.8:
                continue
            r = rng_true + NOISE["sigma_range"] * normal()
            b = wrap(math.atan2(dy, dx) - th + NOISE["sigma_bearing"] * normal())
            ident = mark["id"] if mark["tag"] else 0
            if mark["tag"] and rng.random() < opts["misread"]:
                far = [i for i in tag_ids if i != mark["id"]]
                ident = far[int(rng.random() * len(far))] if far else ident
            scan_seq += 1
            records.append((arrival, f"LMK {host_of(tau):.6f} {scan_seq} {ident} {r:.4f} {b:.5f}"))
        n_out = int(opts["outliers"]) + (1 if rng.random() < opts["outliers"] % 1 else 0)
        for _ in range(n_out):
            ident = 0 if rng.random() < 0.6 or not tag_ids else tag_ids[int(rng.random() * len(tag_ids))]
            scan_seq += 1
            records.append((arrival, f"LMK {host_of(tau):.6f} {scan_seq} {ident} {uniform(rng, 0.5, 8.0):.4f} "
                                     f"{uniform(rng, -math.pi, math.pi):.5f}"))

    # time synchronisation pairs (host clock read with up to 1 ms of jitter on a boot clock)
    jitter = 0.001 if opts["mcu_clock"] == "boot" else 0.0
    n_syn = int(duration / SYN_PERIOD)
    for i in range(n_syn + 1):
        tau = i * SYN_PERIOD + 0.3
        mcu = mcu0 + tau * (1.0 + drift)
        records.append((host_of(tau), f"SYN {host_of(tau) + uniform(rng, -jitter, jitter):.6f} {mcu:.6f}"))

    # delivery: in time order, or batched/late with retransmitted duplicates
    if opts["reorder"]:
        arranged = []
        for arrival, line in records:
            if line.startswith(("ENC", "GYR")):
                arrival = arrival + uniform(rng, 0.0, 0.12)  # MCU frames batch a few records, not in order
            arranged.append((arrival, line))
        records = arranged
    out = []
    for arrival, line in records:
        out.append((arrival, line))
        if rng.random() < opts["duplicates"]:
            out.append((arrival + uniform(rng, 0.0, 0.5), line))
    out.sort(key=lambda item: item[0])

    header = [
        "# odolog 1",
        f"# robot: AMR-{int(uniform(rng, 100, 999))}",
        f"# wheel_radius_m: {radius}",
        f"# wheel_base_m: {base}",
        f"# ticks_per_rev: {ticks}",
        f"# encoder_bits: {bits}",
        f"# encoder_sign: 1 {right_sign}",
        f"# gyro_units: {opts['gyro_units']}",
        f"# sensor_offset_m: {offset}",
        f"# initial_pose: {motion['x'][0]:.4f} {motion['y'][0]:.4f} {wrap(motion['theta'][0]):.5f}",
        "# initial_sigma: 0.02 0.02 0.01",
        f"# sigma_wheel: {NOISE['sigma_wheel']}",
        f"# sigma_gyro_rad_s: {NOISE['sigma_gyro']}",
        f"# sigma_bias0_rad_s: {NOISE['sigma_bias0']}",
        f"# bias_walk_rad_s: {NOISE['bias_walk']}",
        f"# sigma_range_m: {NOISE['sigma_range']}",
        f"# sigma_bearing_rad: {NOISE['sigma_bearing']}",
    ]
    log_text = "\n".join(header + [line for _a, line in out]) + "\n"
    map_text = "id,x,y\n" + "".join(f"{m['id']},{m['x']:.3f},{m['y']:.3f}\n" for m in sorted(marks, key=lambda m: m["id"]))
    truth_text = "seq,t,x,y,theta\n" + "".join(
        f"{seq},{t:.6f},{x:.5f},{y:.5f},{th:.6f}\n" for seq, t, x, y, th in truth_rows)
    return {"log": log_text, "map": map_text, "truth": truth_text, "truth_rows": truth_rows,
            "robot": robot, "options": opts, "duration": duration, "landmarks": len(marks)}


PRESETS = {
    "clean": {},
    "fleet": {"encoder_bits": 16, "right_sign": -1, "gyro_units": "deg/s", "calibration": "varied",
              "mcu_clock": "boot", "reorder": True, "duplicates": 0.01},
    "patchy": {"unknown_ids": 0.4, "misread": 0.02, "outliers": 0.4, "gyro_dropouts": 1, "scan_blackouts": 1,
               "enc_loss": 0.01, "enc_bursts": 1, "scanner_warmup": 4.0},
}


def main(argv: list[str]) -> int:
    if len(argv) < 4:
        print(__doc__.strip().splitlines()[4].strip(), file=sys.stderr)
        return 2
    out_dir, name, seed = Path(argv[1]), argv[2], int(argv[3])
    preset = argv[argv.index("--preset") + 1] if "--preset" in argv else "clean"
    run = make_run(random.Random(seed), PRESETS[preset])
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / f"{name}.odolog").write_text(run["log"])
    (out_dir / f"{name}.map.csv").write_text(run["map"])
    (out_dir / f"{name}.truth.csv").write_text(run["truth"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
