# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Audio side: decode all channels at the native rate, find beep onsets."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

import numpy as np

from .probe import ClipInfo

GAP_SEC = 0.030  # a new beep starts after at least this much quiet
MIN_BEEP_SEC = 0.040  # shorter bursts are clicks, not beeps


@dataclass
class AudioTrack:
    samples: np.ndarray  # (n, channels) float32
    sample_rate: int
    start_time: float  # presentation time of the first sample


def load(info: ClipInfo) -> AudioTrack:
    cmd = ["ffmpeg", "-nostdin", "-v", "error", "-i", info.path, "-map", f"0:{info.audio.index}",
           "-f", "f32le", "-acodec", "pcm_f32le", "-"]
    raw = subprocess.run(cmd, capture_output=True, check=True).stdout
    channels = max(info.audio.channels, 1)
    data = np.frombuffer(raw, dtype="<f4")
    data = data[: len(data) // channels * channels].reshape(-1, channels)
    return AudioTrack(samples=data, sample_rate=info.audio.sample_rate, start_time=info.audio.start_time)


def envelope(samples: np.ndarray) -> np.ndarray:
    """Loudest channel's magnitude after removing each channel's DC offset."""
    centred = samples.astype(np.float64) - np.median(samples, axis=0)
    return np.abs(centred).max(axis=1)


def beep_onsets(track: AudioTrack) -> np.ndarray:
    env = envelope(track.samples)
    if len(env) == 0:
        return np.zeros(0)
    floor, peak = float(np.median(env)), float(np.percentile(env, 99.5))
    if peak <= 4.0 * floor or peak < 1e-4:
        return np.zeros(0)
    above = np.flatnonzero(env > floor + 0.5 * (peak - floor))
    if len(above) == 0:
        return np.zeros(0)
    sr = track.sample_rate
    gap = int(GAP_SEC * sr)
    starts = [above[0]] + [b for a, b in zip(above[:-1], above[1:]) if b - a > gap]
    ends = [a for a, b in zip(above[:-1], above[1:]) if b - a > gap] + [above[-1]]
    onsets = [s for s, e in zip(starts, ends) if (e - s) >= MIN_BEEP_SEC * sr]
    return track.start_time + np.asarray(onsets, dtype=np.float64) / sr
