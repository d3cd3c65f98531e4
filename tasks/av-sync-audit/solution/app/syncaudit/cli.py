# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Command line: python3 avsync.py CLIP... --out REPORT.json [--tolerance-ms 40]."""

from __future__ import annotations

import argparse
import os
import sys

from . import audio, probe, report, sync, video


def analyse(path: str, tolerance_ms: float) -> dict:
    info = probe.probe(path)
    vtrack = video.load(info)
    atrack = audio.load(info)
    flashes = video.flash_onsets(vtrack)
    beeps = audio.beep_onsets(atrack)
    result = sync.summarise(flashes, beeps, tolerance_ms)
    dropped, duplicated = video.frame_faults(vtrack.frames)
    return report.clip_entry(result, dropped, duplicated)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Audit A/V sync of test-pattern clips.")
    parser.add_argument("clips", nargs="+")
    parser.add_argument("--out", required=True)
    parser.add_argument("--tolerance-ms", type=float, default=40.0)
    args = parser.parse_args(argv)
    clips = {}
    for path in args.clips:
        clips[os.path.basename(path)] = analyse(path, args.tolerance_ms)
    report.write(args.out, args.tolerance_ms, clips)
    return 0


if __name__ == "__main__":
    sys.exit(main())
