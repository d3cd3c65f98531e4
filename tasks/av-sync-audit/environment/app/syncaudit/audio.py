# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Audio side: decode all channels at the native rate, find beep onsets."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

import numpy as np

from .probe import ClipInfo

SAMPLE_RATE = 48000  # house standard for broadcast audio
THRESHOLD = 0.3  # beep level (full scale 1.0)
GAP_SEC = 0.030  # a new beep starts after at least this much quiet
MIN_BEEP_SEC = 0.040  # shorter bursts are clicks, not beeps


@dataclass
class AudioTrack:
    samples: np.ndarray  # (n, channels) float32
    sample_rate: int
    start_time: float  # presentation time of the first sample


def load(info: ClipInfo) -> AudioTrack:
    cmd = ["ffmpeg", "-nostdin", "-v", "error", "-i", info.path, "-map", f"0:{info.audio.index}",
           "-af", "pan=mono|c0=c0", "-f", "f32le", "-acodec", "pcm_f32le", "-"]
    raw = subprocess.run(cmd, capture_output=True, check=True).stdout
    data = np.frombuffer(raw, dtype="<f4").reshape(-1, 1)
    return AudioTrack(samples=data, sample_rate=info.audio.sample_rate, start_time=0.0)


def envelope(samples: np.ndarray) -> np.ndarray:
    return np.abs(samples[:, 0].astype(np.float64))


def beep_onsets(track: AudioTrack) -> np.ndarray:
    env = envelope(track.samples)
    above = np.flatnonzero(env > THRESHOLD)
    if len(above) == 0:
        return np.zeros(0)
    sr = SAMPLE_RATE
    gap = int(GAP_SEC * sr)
    starts = [above[0]] + [b for a, b in zip(above[:-1], above[1:]) if b - a > gap]
    ends = [a for a, b in zip(above[:-1], above[1:]) if b - a > gap] + [above[-1]]
    onsets = [s for s, e in zip(starts, ends) if (e - s) >= MIN_BEEP_SEC * sr]
    return track.start_time + np.asarray(onsets, dtype=np.float64) / sr
