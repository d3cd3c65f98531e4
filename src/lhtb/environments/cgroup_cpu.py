"""A container's CPU time straight from the host's cgroup files, when the harness runs on the Docker host.

The Engine API's stats endpoint answers in about a second per call (the daemon waits for its next sample); a
cgroup file read takes microseconds. Found through the container's init process: ``/proc/PID/cgroup`` names
its cgroup, under the v1 ``cpuacct`` hierarchy (``cpuacct.usage``, ns) or the v2 unified one
(``cpu.stat`` ``usage_usec``). Anything unexpected yields None and the caller falls back to the API.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class CpuFile:
    path: Path
    unit_ns: int  # multiply the file's figure by this for nanoseconds
    key: str | None = None  # a "key value" line to read (cgroup v2 cpu.stat); None: the whole file is one number

    def read_ns(self) -> int | None:
        try:
            text = self.path.read_text()
        except OSError:
            return None
        if self.key is None:
            value = text.strip()
        else:
            value = next((line.split()[1] for line in text.splitlines() if line.startswith(self.key + " ")), "")
        return int(value) * self.unit_ns if value.isdigit() else None


def cpu_file_for_pid(pid: int, container_id: str, root: Path = CGROUP_ROOT) -> CpuFile | None:
    """The file holding the CPU time of ``pid``'s cgroup, or None when it cannot be found here.

    The cgroup must name ``container_id`` (Docker's cgroupfs and systemd drivers both do): in another PID
    namespace, ``pid`` would be some unrelated process of ours.
    """
    try:
        lines = Path(f"/proc/{pid}/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, cgroup = rest.partition(":")
        if not hierarchy or not cgroup.startswith("/") or container_id not in cgroup:
            continue
        relative = cgroup.lstrip("/")
        if "cpuacct" in controllers.split(","):
            for mount in (controllers, "cpu,cpuacct", "cpuacct"):
                candidate = root / mount / relative / "cpuacct.usage"
                if candidate.is_file():
                    return CpuFile(candidate, unit_ns=1)
        if hierarchy == "0" and controllers == "":
            candidate = root / relative / "cpu.stat"
            if candidate.is_file():
                return CpuFile(candidate, unit_ns=1000, key="usage_usec")
    return None
