# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Stream facts from ffprobe: time bases, start times, frame rate, sample rate, channels."""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from fractions import Fraction


class ProbeError(RuntimeError):
    """ffprobe failed or the clip lacks a video or an audio stream."""


@dataclass(frozen=True)
class VideoStream:
    index: int
    time_base: Fraction
    start_time: float
    frame_rate: Fraction
    width: int
    height: int


@dataclass(frozen=True)
class AudioStream:
    index: int
    time_base: Fraction
    start_time: float
    sample_rate: int
    channels: int


@dataclass(frozen=True)
class ClipInfo:
    path: str
    video: VideoStream
    audio: AudioStream


def parse_rate(text: str | None) -> Fraction:
    """'30000/1001' -> Fraction(30000, 1001); '0/0' or missing -> 0."""
    if not text or text in ("0/0", "N/A"):
        return Fraction(0)
    if "/" in text:
        num, den = text.split("/", 1)
        return Fraction(int(num) // int(den)) if int(den) else Fraction(0)
    return Fraction(text)


def _start(stream: dict) -> float:
    value = stream.get("start_time")
    if value in (None, "N/A"):
        return 0.0
    return float(value)


def run_ffprobe(args: list[str]) -> dict:
    cmd = ["ffprobe", "-v", "error", "-of", "json", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ProbeError(f"ffprobe failed: {proc.stderr.strip()[:300]}")
    return json.loads(proc.stdout or "{}")


def probe(path: str) -> ClipInfo:
    data = run_ffprobe(["-show_streams", "-show_format", path])
    video = audio = None
    for stream in data.get("streams", []):
        kind = stream.get("codec_type")
        if kind == "video" and video is None:
            video = VideoStream(
                index=int(stream["index"]),
                time_base=Fraction(stream["time_base"]),
                start_time=_start(stream),
                frame_rate=parse_rate(stream.get("r_frame_rate")),
                width=int(stream["width"]),
                height=int(stream["height"]),
            )
        elif kind == "audio" and audio is None:
            audio = AudioStream(
                index=int(stream["index"]),
                time_base=parse_rate(stream.get("time_base")),
                start_time=_start(stream),
                sample_rate=int(stream["sample_rate"]),
                channels=int(stream.get("channels", 1)),
            )
    if video is None or audio is None:
        raise ProbeError(f"{path}: needs one video and one audio stream")
    return ClipInfo(path=path, video=video, audio=audio)
