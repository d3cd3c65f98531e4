# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Synthetic A/V sync test clips: flashes and a frame counter on video, beeps on audio, encoded with ffmpeg.

Used twice: at image build time (``python3 avgen.py /app/examples`` writes the public clips and their
expected report) and, from its own copy in tests/, by the verifier to write hidden clips from its seed.
Every case is described in presentation time; the truth is computed from the exact timestamps and sample
positions the clip is written with, never measured back from the file.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import wave
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

WIDTH, HEIGHT = 64, 48
COUNTER_ROWS = 16  # two rows of eight 8x8 blocks: bit b at block row b // 8, column b % 8 (LSB first)
FLASH_FRAMES = 3
BEEP_HZ = 1000.0
BEEP_SEC = 0.100
EDGE_SEC = 0.05  # no beep closer than this to either end of the audio

FAMILIES = ("plain", "ntsc", "start_offset", "vfr_drops", "channels", "rate_44k", "weak_signals", "drift")
PUBLIC_CASES = (  # (file name, family, seed): the clips of /app/examples
    ("studio_a.mkv", "plain", 11),
    ("ntsc_feed.mov", "ntsc", 12),
    ("remote_b.mkv", "start_offset", 13),
)
PUBLIC_TOLERANCE_MS = 40.0


@dataclass
class Case:
    family: str
    ext: str
    tolerance_ms: float
    # video: delivered frames in presentation order
    tb: int  # video ticks per second for the pts expression
    pts_expr: str  # ffmpeg setpts expression (in ticks of 1/tb) giving each delivered frame's pts
    pts: list[int]  # the same pts, ticks
    counters: list[int]
    flashes: list[bool]
    bg: float = 20.0
    flash_level: float = 220.0
    pixel_noise: float = 0.0
    # audio
    sr: int = 48000
    channels: int = 1
    beep_channel: int = 0
    audio_start_ms: int = 0
    n_samples: int = 0
    beep_starts: list[int] = field(default_factory=list)
    amplitude: float = 0.5
    polarity: float = 1.0
    noise: float = 0.002
    dc: float = 0.0
    noise_seed: int = 0
    truth: dict = field(default_factory=dict)


def _source_frames(rng: random.Random, fpp: int, n_events: int) -> tuple[int, int, int]:
    """(first flash frame, number of source frames, counter base)."""
    j0 = rng.randrange(8, 16)
    n_src = j0 + (n_events - 1) * fpp + FLASH_FRAMES + rng.randrange(18, 24)
    return j0, n_src, rng.randrange(0, 60000)


def _is_flash(j: int, j0: int, fpp: int) -> bool:
    return j >= j0 and (j - j0) % fpp < FLASH_FRAMES


def _deliver(rng: random.Random, j0: int, n_src: int, fpp: int, drops: int, dups: int) -> list[int]:
    """Source frame indices as delivered: some quiet frames dropped, some repeated."""
    quiet = [j for j in range(3, n_src - 3)
             if not any(_is_flash(k, j0, fpp) for k in range(j - 2, j + 3))]
    chosen = rng.sample(quiet, drops + dups)
    # keep chosen frames apart so a drop and a dup never touch
    while any(abs(a - b) < 3 for i, a in enumerate(chosen) for b in chosen[i + 1:]):
        chosen = rng.sample(quiet, drops + dups)
    dropped, repeated = set(chosen[:drops]), set(chosen[drops:])
    out = []
    for j in range(n_src):
        if j in dropped:
            continue
        out.append(j)
        if j in repeated:
            out.append(j)
    return out


def _draw_offset(rng: random.Random, tolerance: float) -> float:
    while True:
        offset = rng.choice((-1, 1)) * rng.uniform(10.0, 150.0)
        if abs(abs(offset) - tolerance) >= 8.0:
            return round(offset, 2)


def make_case(rng: random.Random, family: str, tolerance: float | None = None) -> Case:
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")
    drawn = rng.choice((25.0, 40.0, 60.0))
    tolerance = drawn if tolerance is None else tolerance
    ntsc = family == "ntsc"
    fpp = 30 if ntsc else 25
    n_events = 10 if family == "drift" else rng.randrange(6, 9)
    j0, n_src, base = _source_frames(rng, fpp, n_events)
    drops, dups = (rng.randrange(1, 4), rng.randrange(1, 3)) if family == "vfr_drops" else (0, 0)
    delivered = _deliver(rng, j0, n_src, fpp, drops, dups)
    ext = "mov" if ntsc else "mkv"
    video_start_ms, audio_start_ms = 0, 0
    if family == "start_offset":
        ext = rng.choice(("mkv", "mov"))
        video_start_ms = rng.randrange(0, 300)
        audio_start_ms = video_start_ms + rng.randrange(450, 800)
    n = len(delivered)
    if ntsc:
        tb = 30000
        start = video_start_ms * 30
        pts = [start + 1001 * i for i in range(n)]
        expr = f"{start}+1001*N"
    elif family == "vfr_drops":
        tb = 1000
        a, b, m = rng.randrange(11, 60), rng.randrange(0, 17), rng.randrange(9, 19)
        start = video_start_ms + rng.randrange(0, 200)
        pts = [start + 40 * i + (i * a + b) % m for i in range(n)]
        expr = f"{start}+40*N+mod(N*{a}+{b}\\,{m})"
    else:
        tb = 1000
        start = video_start_ms
        pts = [start + 40 * i for i in range(n)]
        expr = f"{start}+40*N"
    flashes = [_is_flash(j, j0, fpp) for j in delivered]
    case = Case(family=family, ext=ext, tolerance_ms=tolerance, tb=tb, pts_expr=expr, pts=pts,
                counters=[(base + j) % 65536 for j in delivered], flashes=flashes)
    case.noise_seed = rng.randrange(1 << 30)
    case.audio_start_ms = audio_start_ms
    if family == "rate_44k":
        case.sr = 44100
    if family == "channels":
        case.channels, case.beep_channel = (2, 1) if rng.random() < 0.5 else (6, 2)
    if family == "weak_signals":
        case.amplitude = rng.uniform(0.02, 0.04)
        case.noise = case.amplitude / 25.0
        case.dc = rng.choice((-1, 1)) * rng.uniform(0.15, 0.3)
        case.polarity = -1.0
        case.bg = rng.uniform(28.0, 40.0)
        case.flash_level = case.bg + rng.uniform(25.0, 40.0)
        case.pixel_noise = 4.0
    else:
        case.amplitude = rng.uniform(0.35, 0.7)
        case.polarity = rng.choice((-1.0, 1.0)) if family != "plain" else 1.0
    video_end = (pts[-1] + (1001 if ntsc else 40)) / tb
    audio_end = video_end + rng.uniform(-0.2, 0.2) if family == "start_offset" else video_end
    case.n_samples = int(round((audio_end - audio_start_ms / 1000.0) * case.sr))
    onsets = [pts[i] / tb for i in range(1, n) if flashes[i] and not flashes[i - 1]]
    for _attempt in range(400):
        if family == "drift":
            drift = rng.choice((-1, 1)) * rng.uniform(1500.0, 4000.0)
            offset = round(rng.uniform(-tolerance, tolerance), 2)
        else:
            drift, offset = 0.0, _draw_offset(rng, tolerance)
        truth, starts = _truth(case, onsets, offset, drift)
        if family != "drift" or _drift_ok(truth, tolerance):
            break
    else:
        raise RuntimeError("no drift case with a clear in_sync verdict")
    case.beep_starts = starts
    case.truth = truth
    return case


def _truth(case: Case, onsets: list[float], offset_ms: float, drift_ppm: float) -> tuple[dict, list[int]]:
    beep_n = int(round(BEEP_SEC * case.sr))
    edge = int(round(EDGE_SEC * case.sr))
    a0 = case.audio_start_ms / 1000.0
    pairs, starts = [], []
    for t_v in onsets:
        t_a = t_v + offset_ms / 1000.0 + drift_ppm * 1e-6 * t_v
        k = int(round((t_a - a0) * case.sr))
        if k < edge or k + beep_n + edge > case.n_samples:
            continue
        starts.append(k)
        pairs.append((t_v, a0 + k / case.sr))
    t = np.array([p[0] for p in pairs])
    d = np.array([p[1] - p[0] for p in pairs]) * 1000.0
    slope = float(np.polyfit(t, d, 1)[0]) if len(pairs) >= 2 else 0.0
    counters = case.counters
    dropped = sum((b - a) % 65536 - 1 for a, b in zip(counters, counters[1:]) if b != a)
    duplicated = sum(1 for a, b in zip(counters, counters[1:]) if a == b)
    truth = {"offset_ms": round(float(d.mean()), 3), "drift_ppm": round(slope * 1000.0, 1),
             "dropped_frames": dropped, "duplicated_frames": duplicated,
             "in_sync": bool(np.abs(d).max() <= case.tolerance_ms), "events": len(pairs),
             "_max_abs_ms": float(np.abs(d).max())}
    return truth, starts


def _drift_ok(truth: dict, tolerance: float) -> bool:
    """A drift case whose worst event is clearly out of tolerance while the mean offset is clearly inside."""
    return truth["_max_abs_ms"] - tolerance >= 6.0 and abs(truth["offset_ms"]) <= tolerance - 6.0


def public_truth(truth: dict) -> dict:
    return {k: v for k, v in truth.items() if not k.startswith("_")}


def _frames(case: Case) -> bytes:
    rng = np.random.default_rng(case.noise_seed)
    n = len(case.pts)
    img = np.empty((n, HEIGHT, WIDTH), dtype=np.float64)
    for i, (counter, flash) in enumerate(zip(case.counters, case.flashes)):
        img[i, COUNTER_ROWS:, :] = case.flash_level if flash else case.bg
        for b in range(16):
            r, c = (b // 8) * 8, (b % 8) * 8
            img[i, r:r + 8, c:c + 8] = 235.0 if (counter >> b) & 1 else 16.0
    if case.pixel_noise:
        img[:, COUNTER_ROWS:, :] += rng.normal(0.0, case.pixel_noise, size=(n, HEIGHT - COUNTER_ROWS, WIDTH))
    return np.clip(np.round(img), 0, 255).astype(np.uint8).tobytes()


def _audio(case: Case) -> np.ndarray:
    rng = np.random.default_rng(case.noise_seed + 1)
    out = rng.normal(0.0, case.noise, size=(case.n_samples, case.channels))
    out[:, case.beep_channel] += case.dc
    beep_n = int(round(BEEP_SEC * case.sr))
    tone = case.polarity * case.amplitude * np.sin(2 * np.pi * BEEP_HZ * np.arange(beep_n) / case.sr)
    for k in case.beep_starts:
        out[k:k + beep_n, case.beep_channel] += tone
    return np.clip(np.round(out * 32767.0), -32768, 32767).astype("<i2")


def write_case(case: Case, path: Path) -> Path:
    """Encode ``case`` into the clip ``path`` (its suffix must be the case's extension)."""
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="avgen-") as tmp:
        raw = Path(tmp) / "video.gray"
        raw.write_bytes(_frames(case))
        wav = Path(tmp) / "audio.wav"
        with wave.open(str(wav), "wb") as handle:
            handle.setnchannels(case.channels)
            handle.setsampwidth(2)
            handle.setframerate(case.sr)
            handle.writeframes(_audio(case).tobytes())
        cmd = ["ffmpeg", "-nostdin", "-loglevel", "error", "-y",
               "-f", "rawvideo", "-pix_fmt", "gray", "-s", f"{WIDTH}x{HEIGHT}", "-r", "25", "-i", str(raw),
               "-itsoffset", f"{case.audio_start_ms / 1000.0:.3f}", "-i", str(wav),
               "-map", "0:v", "-map", "1:a",
               "-vf", f"settb=1/{case.tb},setpts={case.pts_expr}", "-fps_mode", "passthrough",
               "-enc_time_base:v", f"1/{case.tb}",
               "-c:v", "ffv1", "-c:a", "pcm_s16le", "-map_metadata", "-1", "-fflags", "+bitexact",
               "-flags:v", "+bitexact", "-flags:a", "+bitexact", str(path)]
        subprocess.run(cmd, check=True)
    return path


def public_case(family: str, seed: int) -> Case:
    return make_case(random.Random(seed), family, PUBLIC_TOLERANCE_MS)


def main(out_dir: str) -> None:
    root = Path(out_dir)
    clips = root / "clips"
    clips.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, family, seed in PUBLIC_CASES:
        case = public_case(family, seed)
        write_case(case, clips / name)
        expected[name] = public_truth(case.truth)
    report = {"tolerance_ms": PUBLIC_TOLERANCE_MS, "clips": expected}
    (root / "expected.json").write_text(json.dumps(report, indent=2) + "\n")
    os.chmod(root / "expected.json", 0o644)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "examples")
