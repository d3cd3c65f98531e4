# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of vault-protocol-client: run the agent's ``/app/client.py`` against fresh vaultd instances.

Each instance is the image's own /opt/vault/vaultd (outside the artifacts, so the agent cannot change it),
started here as root with a root-only config file (seed, account, faults), so the client cannot read the
options it faces. What each vault holds comes from tests/vaultmodel.py, the verifier's model of the server's
generator. Per instance two checks: every record exactly right, every blob exactly right.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vaultmodel import generate

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_bytes, read_regular_file, work_dir, writable_dir

SEED = stress.seed_from_env(5150)
VAULTD = os.environ.get("VAULTD_BIN", "/opt/vault/vaultd")
CLIENT = "/app/client.py"
RUN_CPU_SEC = 30  # CPU seconds per export (prlimit; SIGKILL 2 s above): a busy machine slows a run, never fails it
RUN_WALL_SEC = 240.0  # only a guard against a client that sleeps or waits forever
AGENT_CPU_BUDGET_SEC = 200.0  # CPU seconds of all runs (client and server) together; later runs fail unstarted
USERS = ["exporter", "backup", "svc-archive", "ops", "nightly"]
ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789_.+"

PUBLIC = dict(seed=4241, records=60, rare=0, big=0, busy=30, drop=9, corrupt=0, user="audit",
              password="correct-horse-7")

# family: (weight, instances, detail)
FAMILIES = {
    "basic": (1.0, 3, "30-80 records, common value types, no faults"),
    "paging": (1.5, 3, "300-700 records: many pages, long sessions"),
    "rare_types": (1.5, 3, "every value type, unicode and escaped texts"),
    "busy": (1.5, 3, "busy / retry-later answers"),
    "resets": (2.0, 3, "sessions dropped mid-listing and mid-download"),
    "corrupt": (1.5, 3, "large attachments, pieces damaged in transit"),
    "combined": (1.5, 2, "everything at once"),
}


def rand_int(rng, low: int, high: int) -> int:
    """low..high inclusive, through Random.random() only (stable across Python versions)."""
    return low + int(rng.random() * (high - low + 1))


def instance(family: str, index: int) -> dict:
    rng = stress.rng(SEED, "vault", family, index)
    opts = dict(seed=rand_int(rng, 1, 2**40), rare=0, big=0, busy=0, drop=0, corrupt=0,
                user=USERS[rand_int(rng, 0, len(USERS) - 1)],
                password="".join(ALPHABET[rand_int(rng, 0, len(ALPHABET) - 1)] for _ in range(rand_int(rng, 8, 24))))
    if family == "basic":
        opts["records"] = rand_int(rng, 30, 80)
    elif family == "paging":
        opts["records"] = rand_int(rng, 300, 700)
    elif family == "rare_types":
        opts.update(records=rand_int(rng, 60, 150), rare=1)
    elif family == "busy":
        opts.update(records=rand_int(rng, 100, 200), busy=rand_int(rng, 40, 120))
    elif family == "resets":
        # the first session ends at request `drop`, before a 250-record listing is through
        opts.update(records=rand_int(rng, 250, 400), drop=rand_int(rng, 6, 9))
    elif family == "corrupt":
        opts.update(records=rand_int(rng, 40, 70), big=1, corrupt=rand_int(rng, 20, 60))
    elif family == "combined":
        opts.update(records=rand_int(rng, 150, 250), rare=1, busy=rand_int(rng, 20, 50),
                    drop=rand_int(rng, 12, 30), corrupt=rand_int(rng, 20, 40))
    else:
        raise KeyError(family)
    return opts


class Exporter:
    def __init__(self) -> None:
        self.runner = AgentRunner("/app", timeout_sec=RUN_WALL_SEC, max_timeouts=2)
        self.base = work_dir("vault-")
        self.count = 0
        self.notes: list[str] = []

    def cpu_used(self) -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def export(self, label: str, opts: dict) -> tuple[list | None, Path]:
        """Run the client against a fresh instance; (parsed records.jsonl or None, output directory)."""
        self.count += 1
        run_dir = self.base / str(self.count)
        run_dir.mkdir()
        run_dir.chmod(0o755)
        out = writable_dir(run_dir / "out")
        sock = run_dir / "vault.sock"
        if self.cpu_used() > AGENT_CPU_BUDGET_SEC:
            self.notes.append(f"{label}: not run, CPU budget spent")
            return None, out
        secret = Path(tempfile.mkdtemp(prefix="vaultcfg-"))  # 0700, root's
        config = secret / "vault.conf"
        config.write_text("".join(f"{k}={v}\n" for k, v in {**opts, "socket": sock}.items()))
        config.chmod(0o600)
        server = subprocess.Popen([VAULTD, "--config", str(config)], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(3000):  # readiness only: the socket appears within milliseconds
                if sock.exists() or server.poll() is not None:
                    break
                time.sleep(0.01)
            if not sock.exists():
                raise RuntimeError(f"vaultd did not start for {label}")
            limit = f"--cpu={RUN_CPU_SEC}:{RUN_CPU_SEC + 2}"
            run = self.runner.run(["/usr/bin/prlimit", limit, "--", sys.executable, CLIENT, "--socket", str(sock),
                                   "--user", opts["user"], "--password", opts["password"], "--out", str(out)])
        finally:
            server.kill()
            server.wait()
            config.unlink()
            secret.rmdir()
        if not run.ok:
            self.notes.append(f"{label}: client failed ({run.note})")
            return None, out
        text = read_regular_file(out / "records.jsonl", limit=64 << 20)
        if text is None:
            self.notes.append(f"{label}: no records.jsonl")
            return None, out
        try:
            return [json.loads(line) for line in text.splitlines() if line.strip()], out
        except json.JSONDecodeError as exc:
            self.notes.append(f"{label}: records.jsonl is not JSON lines ({exc})")
            return None, out

    def checks(self, label: str, opts: dict) -> list[bool]:
        expected, blobs = generate(opts["seed"], opts["records"], bool(opts["rare"]), bool(opts["big"]))
        got, out = self.export(label, opts)
        records_ok = got == expected
        if got is not None and not records_ok:
            wrong = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
            self.notes.append(f"{label}: records differ (got {len(got)}, expected {len(expected)}; first at {wrong})")
        blobs_ok = got is not None and all(
            read_regular_bytes(out / "blobs" / str(blob), len(data) + 1) == data for blob, data in blobs.items())
        if got is not None and not blobs_ok:
            self.notes.append(f"{label}: some blob missing or wrong")
        return [records_ok, blobs_ok]


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    exporter = Exporter()
    card.fraction("public_capture_vault", 0.5, lambda: exporter.checks("public", PUBLIC), visibility="public",
                  detail="the capture's own vault (seed 4241)")
    for family, (weight, count, detail) in FAMILIES.items():
        results = []
        for i in range(count):
            results += exporter.checks(f"{family}-{i}", instance(family, i))
        card.fraction(f"hidden_{family}", weight, results, detail=detail + "; records and blobs per instance")
    if exporter.notes:
        print("notes:\n  " + "\n  ".join(exporter.notes[:80]))
    card.write()


if __name__ == "__main__":
    main()
