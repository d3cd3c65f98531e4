# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Video side: decode every frame with its presentation time, find flash onsets, read the frame counter."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

import numpy as np

from .probe import ClipInfo, run_ffprobe

COUNTER_ROWS = 16  # the top 16 rows carry the 16-bit frame counter as 8x8 blocks, LSB first
COUNTER_BITS = 16


@dataclass
class VideoTrack:
    times: np.ndarray  # presentation time of each decoded frame, seconds
    frames: np.ndarray  # (n, height, width) uint8 luma


def frame_times(info: ClipInfo) -> np.ndarray:
    """Presentation time of every video frame, from its pts in the stream's time base."""
    data = run_ffprobe(["-select_streams", f"{info.video.index}", "-show_entries",
                        "frame=pts,pkt_dts,best_effort_timestamp", info.path])
    tb = float(info.video.time_base)
    times = []
    for frame in data.get("frames", []):
        ticks = frame.get("pts")
        if ticks in (None, "N/A"):
            ticks = frame.get("best_effort_timestamp")
        times.append(int(ticks) * tb)
    return np.asarray(times, dtype=np.float64)


def decode_frames(info: ClipInfo) -> np.ndarray:
    """Every frame as gray pixels, one per coded frame (no frame-rate conversion)."""
    width, height = info.video.width, info.video.height
    cmd = ["ffmpeg", "-nostdin", "-v", "error", "-i", info.path, "-map", f"0:{info.video.index}",
           "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
    raw = subprocess.run(cmd, capture_output=True, check=True).stdout
    size = width * height
    return np.frombuffer(raw, dtype=np.uint8)[: len(raw) // size * size].reshape(-1, height, width)


def load(info: ClipInfo) -> VideoTrack:
    times = frame_times(info)
    frames = decode_frames(info)
    n = min(len(times), len(frames))
    return VideoTrack(times=times[:n], frames=frames[:n])


def flash_levels(frames: np.ndarray) -> np.ndarray:
    return frames[:, COUNTER_ROWS:, :].astype(np.float64).mean(axis=(1, 2))


def flash_onsets(track: VideoTrack) -> np.ndarray:
    """Time of the first frame of every flash (a run of frames brighter than the midpoint level)."""
    levels = flash_levels(track.frames)
    if len(levels) == 0:
        return np.zeros(0)
    low, high = float(np.median(levels)), float(levels.max())
    if high - low < 4.0:
        return np.zeros(0)
    lit = levels > (low + high) / 2.0
    starts = np.flatnonzero(lit & ~np.concatenate(([False], lit[:-1])))
    return track.times[starts]


def counters(frames: np.ndarray) -> np.ndarray:
    values = np.zeros(len(frames), dtype=np.int64)
    for bit in range(COUNTER_BITS):
        r, c = (bit // 8) * 8, (bit % 8) * 8
        block = frames[:, r + 2:r + 6, c + 2:c + 6].astype(np.float64).mean(axis=(1, 2))
        values |= (block > 128.0).astype(np.int64) << bit
    return values


def frame_faults(frames: np.ndarray) -> tuple[int, int]:
    """(dropped, duplicated) frames from the counter: skipped values and repeated values."""
    values = counters(frames)
    dropped = duplicated = 0
    for a, b in zip(values[:-1], values[1:]):
        if a == b:
            duplicated += 1
        else:
            dropped += int((b - a) % 65536) - 1
    return dropped, duplicated
