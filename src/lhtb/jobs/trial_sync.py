"""Ship a trial directory from the node that runs it to the job directory on the submitting machine.

While the trial runs, batches carry the files changed since the last batch (phases of a long trial: agent
logs, checkpoints, interim results); when it ends, one batch carries the whole directory, and files the node
no longer has are removed. Every file lands by an atomic rename and ``result.json`` always last, so a reader of
the job directory (the viewer, ``jobs show``, a resume after a crash) never sees half a file, nor a result
before the files it describes.
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from lhtb.environments.tarsafe import safe_extract

RESULT_FILE = "result.json"
# Written on the submitting machine before the trial is placed; never shipped, never pruned.
KEPT_ON_HEAD = frozenset({"config.json"})


def _in_flight(name: str) -> bool:
    """An atomic write's temporary file (lhtb.fs): shipping it mid-trial would leave a stray file behind."""
    return name.startswith(".") and name.endswith(".tmp")


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.lstat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class DirTracker:
    """The files of a trial directory that changed since the last batch, as a tar."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._sent: dict[str, tuple[int, int]] = {}

    def _files(self, *, with_dirs: bool = False) -> list[Path]:
        found = []
        for directory, dirs, files in os.walk(self.root):
            dirs.sort()
            for name in dirs:
                if with_dirs or Path(directory, name).is_symlink():
                    found.append(Path(directory, name))
            found.extend(Path(directory, name) for name in sorted(files) if not _in_flight(name))
        return found

    def changed(self, *, include_result: bool = False) -> bytes | None:
        """A tar of the files new or changed since the last batch; None when nothing changed. While the trial
        runs ``result.json`` is left out: it goes with the whole directory (:meth:`everything`)."""
        out = io.BytesIO()
        count = 0
        with tarfile.open(fileobj=out, mode="w") as archive:
            for path in self._files():
                relative = path.relative_to(self.root).as_posix()
                stamp = _stamp(path)
                held_back = relative == RESULT_FILE and not include_result
                if held_back or stamp is None or self._sent.get(relative) == stamp:
                    continue
                try:
                    archive.add(path, arcname=relative, recursive=False)
                except OSError:  # removed between the walk and the read: the next batch has its successor
                    continue
                self._sent[relative] = stamp
                count += 1
        return out.getvalue() if count else None

    def everything(self) -> bytes:
        """A tar of the whole directory, empty directories too: the trial's final state."""
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as archive:
            for path in self._files(with_dirs=True):
                relative = path.relative_to(self.root).as_posix()
                stamp = _stamp(path)
                archive.add(path, arcname=relative, recursive=False)
                if stamp is not None and not path.is_dir():
                    self._sent[relative] = stamp
        return out.getvalue()


def apply_batch(trial_dir: Path, batch: bytes, *, final: bool) -> None:
    """Land a batch in ``trial_dir``: each file by atomic rename, ``result.json`` last; a final batch also
    removes what the node's directory no longer holds (the head's own ``config.json`` stays)."""
    trial_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=trial_dir))
    try:
        safe_extract(batch, staging)
        entries = sorted(staging.rglob("*"))
        dirs = {p.relative_to(staging).as_posix() for p in entries if p.is_dir() and not p.is_symlink()}
        names = sorted(p.relative_to(staging).as_posix() for p in entries if p.is_symlink() or not p.is_dir())
        names.sort(key=lambda name: name == RESULT_FILE)  # stable: result.json moves last
        for name in sorted(dirs):
            target = trial_dir / name
            if target.is_symlink() or (target.exists() and not target.is_dir()):
                target.unlink()
            target.mkdir(parents=True, exist_ok=True)
        for name in names:
            target = trial_dir / name
            if target.is_dir() and not target.is_symlink():
                shutil.rmtree(target)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / name, target)
        if final:
            _prune(trial_dir, keep=set(names) | dirs | KEPT_ON_HEAD, staging=staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _prune(trial_dir: Path, *, keep: set[str], staging: Path) -> None:
    for directory, dirs, files in os.walk(trial_dir, topdown=False):
        base = Path(directory)
        if base == staging or staging in base.parents:
            continue
        for name in files + [d for d in dirs if (base / d).is_symlink()]:
            path = base / name
            if path.relative_to(trial_dir).as_posix() not in keep:
                path.unlink(missing_ok=True)
        relative = base.relative_to(trial_dir).as_posix()
        if base != trial_dir and relative not in keep and not any(base.iterdir()):
            base.rmdir()
