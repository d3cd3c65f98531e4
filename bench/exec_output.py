"""Harness CPU and peak memory to read a command's huge output through DockerEnvironment.exec.

One container from lhtb/base:bookworm; a command prints 16, 64 and 128 MB on stdout; for each size the table
shows the harness process's CPU seconds (getrusage RUSAGE_SELF: every thread, user + system; best of
``--repeats`` runs), wall seconds (median) and peak RSS (VmHWM, reset before each run where the kernel allows; the max).
Targets, checked in the same run: CPU(128 MB) <= 2 x CPU(64 MB) (linear, not quadratic) and CPU(128 MB) <= 3 s.
Exit 1 when a target is missed. ``--legacy-mb 16`` also times docker-py's old buffered read, for contrast.

    .venv/bin/python bench/exec_output.py --repeats 3 --legacy-mb 16
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import time
from pathlib import Path

from lhtb.environments.base import ContainerSpec, unique_name
from lhtb.environments.docker_client import get_client
from lhtb.environments.docker_env import DockerEnvironment
from lhtb.environments.images import BASE_IMAGE

SIZES_MB = (16, 64, 128)
MAX_RATIO = 2.0
MAX_CPU_128 = 3.0


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _reset_peak_rss() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to the current RSS (Linux >= 4.0)
    except OSError:
        return False
    return True


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _command(size_mb: int) -> str:
    return f"head -c {size_mb}M /dev/zero | tr '\\0' x"


async def _measure(env: DockerEnvironment, size_mb: int) -> dict[str, float]:
    reset = _reset_peak_rss()
    cpu, wall = _cpu(), time.monotonic()
    result = await env.exec(_command(size_mb), timeout_sec=600)
    cpu, wall = _cpu() - cpu, time.monotonic() - wall
    if result.exit_code != 0 or result.stdout_bytes != size_mb * 1024 * 1024:
        raise SystemExit(f"{size_mb} MB: exit {result.exit_code}, {result.stdout_bytes} bytes seen")
    return {
        "cpu": cpu,
        "wall": wall,
        "rss": _status_mb("VmHWM"),
        "kept": len(result.stdout) / 1024 / 1024,
        "reset": float(reset),
    }


def _legacy(env: DockerEnvironment, size_mb: int) -> float:
    """CPU of the old read: docker-py's exec_start(demux=True), which joins frames with repeated ``bytes +=``."""
    api = get_client().api
    exec_id = api.exec_create(env.container_id, ["bash", "-c", _command(size_mb)])["Id"]
    cpu = _cpu()
    api.exec_start(exec_id, demux=True)
    return _cpu() - cpu


async def _median(env: DockerEnvironment, size_mb: int, repeats: int) -> dict[str, float]:
    runs = [await _measure(env, size_mb) for _ in range(repeats)]
    row = {key: statistics.median(run[key] for run in runs) for key in ("wall", "kept")}
    row["cpu"] = min(run["cpu"] for run in runs)  # best of N: other load on the host only ever adds wakeups
    return row | {"rss": max(run["rss"] for run in runs), "reset": min(run["reset"] for run in runs)}


async def main(repeats: int, legacy_mb: int | None) -> int:
    env = DockerEnvironment(
        ContainerSpec(image=BASE_IMAGE, name=unique_name("bench-exec"), job="bench", trial="bench", role="agent")
    )
    await env.start()
    try:
        await env.exec("true")  # warm up the client and the connection pool
        baseline_rss = _status_mb("VmRSS")
        rows = {size: await _median(env, size, repeats) for size in SIZES_MB}
        legacy = None if legacy_mb is None else await asyncio.to_thread(_legacy, env, legacy_mb)
    finally:
        await env.stop()
    print(f"harness RSS before the runs: {baseline_rss:.1f} MB; CPU best of / wall median of {repeats} runs per size")
    print(f"{'output':>8} {'harness CPU s':>14} {'wall s':>8} {'peak RSS MB':>12} {'kept MB':>8}")
    for size, row in rows.items():
        note = "" if row["reset"] else "  (VmHWM not reset: cumulative)"
        print(f"{size:>5} MB {row['cpu']:>14.3f} {row['wall']:>8.2f} {row['rss']:>12.1f} {row['kept']:>8.2f}{note}")
    if legacy is not None:
        print(f"legacy exec_start(demux=True), {legacy_mb} MB: {legacy:.3f} s harness CPU")
    ratio = rows[128]["cpu"] / max(rows[64]["cpu"], 1e-3)
    ok = ratio <= MAX_RATIO and rows[128]["cpu"] <= MAX_CPU_128
    print(
        f"CPU(128)/CPU(64) = {ratio:.2f} (target <= {MAX_RATIO}); CPU(128) = {rows[128]['cpu']:.3f} s "
        f"(target <= {MAX_CPU_128}): {'PASS' if ok else 'FAIL'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="runs per size (best CPU, median wall)")
    parser.add_argument("--legacy-mb", type=int, default=None, help="also time the old buffered read of N MB")
    args = parser.parse_args()
    sys.exit(asyncio.run(main(args.repeats, args.legacy_mb)))
