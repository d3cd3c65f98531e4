# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Run the store under strace and replay its system calls on a model of a disk that keeps only what was
fsynced (hidden).

Whatever API the store uses (the shipped vfs.py, plain open()/os.write, os.pwrite, writev ...), its data
reaches the files through these system calls. The replay keeps, per file, the current content and the
content as of its last fsync/fdatasync (sync/syncfs: every file); creating, truncating, renaming and
unlinking are durable at once. The state of the data directory "after a power cut before event k" is the
synced content of every name that exists at that point. Writes to fd 1 mark when each output line (each
acknowledgement) was printed, which places flush/compaction windows and crash points in the trace.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from lhtb.grading import sandbox

SYSCALLS = ("?open,openat,?creat,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,sync,syncfs,msync,"
            "rename,renameat,renameat2,unlink,unlinkat,truncate,ftruncate,close,dup,dup2,dup3,fcntl,lseek,mmap,"
            "copy_file_range,sendfile,splice,fallocate,link,linkat,symlink,symlinkat,mkdir,mkdirat,rmdir,"
            "chdir,fchdir,io_uring_setup")
LINE = re.compile(r"^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|0x[0-9a-fA-F]+|\?)")
UNFINISHED = re.compile(r"^(\d+)\s+(.*)\s<unfinished \.\.\.>$")
RESUMED = re.compile(r"^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$")
HEX = re.compile(r"\\x([0-9a-fA-F]{2})")
MUTATING = {"create", "write", "fsync", "rename", "unlink", "truncate", "mkdir"}


@dataclass
class Trace:
    events: list = field(default_factory=list)  # (kind, ...) in call order; kind "out" = bytes to stdout
    stdout: bytes = b""
    problems: list = field(default_factory=list)  # calls the disk model cannot honour
    bytes_written: int = 0  # bytes written to files of the data directory
    syncs: int = 0  # fsync / fdatasync / sync / syncfs calls


@dataclass
class Run:
    ok: bool
    stdout: str
    note: str
    trace: Trace


def _text(arg: str) -> bytes:
    arg = arg.strip()
    if arg.endswith("..."):
        raise ValueError("string cut short")
    if not (arg.startswith('"') and arg.endswith('"')):
        raise ValueError(f"not a string: {arg[:40]}")
    body = arg[1:-1]
    return bytes(int(h, 16) for h in HEX.findall(body))


def _split(args: str) -> list:
    parts, depth, cur, quoted = [], 0, [], False
    for ch in args:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "[{":
            depth += 1
        elif not quoted and ch in "]}":
            depth -= 1
        elif not quoted and ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if cur:
        parts.append("".join(cur).strip())
    return parts


def _iov(arg: str) -> bytes:
    return b"".join(_text(s) for s in re.findall(r'iov_base=("[^"]*"(?:\.\.\.)?)', arg))


class _Parser:
    """Turns strace lines into events on paths under ``root`` (fd bookkeeping, relative paths, dirfds)."""

    def __init__(self, root: str, cwd: str) -> None:
        self.root = os.path.normpath(root)
        self.cwd = cwd
        self.fds: dict = {1: {"path": "<stdout>"}, 2: {"path": "<stderr>"}}
        self.trace = Trace()

    def inside(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + "/")

    def resolve(self, dirfd: str | None, raw: str) -> str:
        path = _text(raw).decode("latin-1")
        if not path.startswith("/"):
            base = self.cwd
            if dirfd is not None and dirfd.strip() != "AT_FDCWD":
                base = self.fds.get(int(dirfd), {}).get("path", "/nonexistent")
            path = os.path.join(base, path)
        return os.path.normpath(path)

    def emit(self, *event) -> None:
        self.trace.events.append(event)

    def outside_change(self, path: str, what: str) -> None:
        if not self.inside(path) and not path.startswith("/dev/"):
            self.trace.problems.append(f"{what} outside the data directory: {path}")

    def open(self, path: str, flags: str, fd: int) -> None:
        writing = any(f in flags for f in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"))
        self.fds[fd] = {"path": path}
        if writing:
            self.outside_change(path, "file opened for writing")
        if self.inside(path) and path != self.root:
            self.emit("open", fd, path, "O_CREAT" in flags, "O_TRUNC" in flags and writing, "O_APPEND" in flags)

    def feed(self, name: str, args: list, ret: int) -> None:
        t = self.trace
        if name in ("open", "openat", "creat"):
            if ret < 0:
                return
            if name == "openat":
                path, flags = self.resolve(args[0], args[1]), args[2]
            elif name == "open":
                path, flags = self.resolve(None, args[0]), args[1]
            else:
                path, flags = self.resolve(None, args[0]), "O_WRONLY|O_CREAT|O_TRUNC"
            self.open(path, flags, ret)
        elif ret < 0:
            return
        elif name in ("write", "pwrite64", "writev", "pwritev", "pwritev2"):
            fd = int(args[0])
            data = (_text(args[1]) if name in ("write", "pwrite64") else _iov(args[1]))[:ret]
            if len(data) < ret:
                t.problems.append(f"{name} data not captured")
                return
            if fd in self.fds and self.fds[fd]["path"] == "<stdout>":
                t.stdout += data
                self.emit("out", len(t.stdout))
                return
            entry = self.fds.get(fd)
            if entry is None or not self.inside(entry["path"]):
                return
            offset = None if name in ("write", "writev") else int(args[-2] if name == "pwritev2" else args[-1])
            t.bytes_written += ret
            self.emit("write", fd, offset, data)
        elif name in ("fsync", "fdatasync"):
            t.syncs += 1
            self.emit("fsync", int(args[0]))
        elif name in ("sync", "syncfs"):
            t.syncs += 1
            self.emit("syncall")
        elif name in ("rename", "renameat", "renameat2"):
            src = self.resolve(None, args[0]) if name == "rename" else self.resolve(args[0], args[1])
            dst = self.resolve(None, args[1]) if name == "rename" else self.resolve(args[2], args[3])
            if len(args) > 4 and "RENAME_EXCHANGE" in args[4]:
                t.problems.append("rename with RENAME_EXCHANGE")
            for path in (src, dst):
                self.outside_change(path, "rename")
            self.emit("rename", src, dst)
        elif name in ("unlink", "unlinkat", "rmdir"):
            path = self.resolve(args[0], args[1]) if name == "unlinkat" else self.resolve(None, args[0])
            self.outside_change(path, "unlink")
            self.emit("unlink", path)
        elif name in ("mkdir", "mkdirat"):
            path = self.resolve(args[0], args[1]) if name == "mkdirat" else self.resolve(None, args[0])
            self.outside_change(path, "mkdir")
            self.emit("mkdir", path)
        elif name == "truncate":
            path = self.resolve(None, args[0])
            self.outside_change(path, "truncate")
            self.emit("truncate_path", path, int(args[1]))
        elif name == "ftruncate":
            entry = self.fds.get(int(args[0]))
            if entry and self.inside(entry["path"]):
                self.emit("truncate_fd", int(args[0]), int(args[1]))
        elif name == "lseek":
            if int(args[0]) in self.fds:
                self.emit("seek", int(args[0]), ret)
        elif name == "close":
            if self.fds.pop(int(args[0]), None) is not None:
                self.emit("close", int(args[0]))
        elif name in ("dup", "dup2", "dup3") or (name == "fcntl" and "F_DUPFD" in args[1]):
            old = int(args[0])
            if old in self.fds:
                if ret in self.fds:
                    self.emit("close", ret)
                self.fds[ret] = self.fds[old]
                self.emit("dup", old, ret)
        elif name == "chdir":
            self.cwd = self.resolve(None, args[0])
        elif name == "fchdir":
            self.cwd = self.fds.get(int(args[0]), {}).get("path", "/nonexistent")
        elif name == "mmap":
            fd = args[4].strip()
            if "MAP_SHARED" in args[3] and "PROT_WRITE" in args[2] and fd.lstrip("-").isdigit() \
                    and int(fd) in self.fds and self.inside(self.fds[int(fd)]["path"]):
                t.problems.append("shared writable mmap of a data file")
        elif name in ("copy_file_range", "sendfile", "splice", "fallocate", "link", "linkat", "symlink",
                      "symlinkat", "msync", "io_uring_setup"):
            t.problems.append(f"{name} is not supported by the disk model")


def parse(text: str, root: str, cwd: str) -> Trace:
    parser = _Parser(root, cwd)
    pending: dict = {}
    for line in text.splitlines():
        m = UNFINISHED.match(line)
        if m:
            pending[m.group(1)] = m.group(2)
            continue
        m = RESUMED.match(line)
        if m:
            line = f"{m.group(1)} {pending.pop(m.group(1), m.group(2) + '(')}{m.group(3)}"
        m = LINE.match(line)
        if not m:
            continue
        ret_text = m.group(4)
        ret = -1 if ret_text == "?" else int(ret_text, 0)
        try:
            parser.feed(m.group(2), _split(m.group(3)), ret)
        except (ValueError, IndexError) as exc:
            parser.trace.problems.append(f"could not follow {m.group(2)}: {exc}")
    return parser.trace


@dataclass
class _Inode:
    cur: bytearray
    dur: bytearray


class Disk:
    """Replays a trace's events over the data directory's starting content."""

    def __init__(self, files: dict, dirs: set) -> None:
        self.names = {path: _Inode(bytearray(data), bytearray(data)) for path, data in files.items()}
        self.dirs = set(dirs)
        self.fds: dict = {}
        self.inodes: list = list(self.names.values())

    def apply(self, event: tuple) -> None:
        kind = event[0]
        if kind == "open":
            _k, fd, path, create, trunc, append = event
            inode = self.names.get(path)
            if inode is None and (create or trunc):
                inode = self.names[path] = _Inode(bytearray(), bytearray())
                self.inodes.append(inode)
            if inode is not None and trunc:
                inode.cur.clear()
                inode.dur.clear()
            self.fds[fd] = {"inode": inode, "pos": 0, "append": append} if inode else None
        elif kind == "dup":
            self.fds[event[2]] = self.fds.get(event[1])
        elif kind == "close":
            self.fds.pop(event[1], None)
        elif kind == "seek":
            entry = self.fds.get(event[1])
            if entry:
                entry["pos"] = event[2]
        elif kind == "write":
            _k, fd, offset, data = event
            entry = self.fds.get(fd)
            if not entry:
                return
            buf = entry["inode"].cur
            at = offset if offset is not None else (len(buf) if entry["append"] else entry["pos"])
            if at > len(buf):
                buf.extend(b"\0" * (at - len(buf)))
            buf[at:at + len(data)] = data
            if offset is None:
                entry["pos"] = at + len(data)
        elif kind == "fsync":
            entry = self.fds.get(event[1])
            if entry:
                entry["inode"].dur[:] = entry["inode"].cur
        elif kind == "syncall":
            for inode in self.inodes:
                inode.dur[:] = inode.cur
        elif kind == "rename":
            _k, src, dst = event
            if src in self.dirs:
                moved = {p for p in list(self.names) + list(self.dirs) if p == src or p.startswith(src + "/")}
                for p in moved:
                    q = dst + p[len(src):]
                    if p in self.names:
                        self.names[q] = self.names.pop(p)
                    else:
                        self.dirs.discard(p)
                        self.dirs.add(q)
            elif src in self.names:
                self.names[dst] = self.names.pop(src)
        elif kind == "unlink":
            self.names.pop(event[1], None)
            self.dirs.discard(event[1])
        elif kind == "mkdir":
            self.dirs.add(event[1])
        elif kind in ("truncate_path", "truncate_fd"):
            if kind == "truncate_path":
                inode = self.names.get(event[1])
            else:
                entry = self.fds.get(event[1])
                inode = entry["inode"] if entry else None
            if inode is not None:
                for buf in (inode.cur, inode.dur):
                    del buf[event[2]:]
                    buf.extend(b"\0" * (event[2] - len(buf)))

    def durable(self) -> tuple:
        return {p: bytes(i.dur) for p, i in self.names.items()}, set(self.dirs)


def snapshot(root: Path) -> tuple:
    files, dirs = {}, set()
    for base, names, files_here in os.walk(root):
        for d in names:
            dirs.add(os.path.normpath(os.path.join(base, d)))
        for f in files_here:
            path = os.path.normpath(os.path.join(base, f))
            data = sandbox.read_regular_bytes(path)
            if data is not None:
                files[path] = data
    return files, dirs


def states(start: tuple, trace: Trace, points: list) -> dict:
    """{k: durable (files, dirs) after a power cut just before event k} for each k in points."""
    disk = Disk(*start)
    wanted, out = sorted(set(points)), {}
    i = 0
    for k in wanted:
        while i < min(k, len(trace.events)):
            disk.apply(trace.events[i])
            i += 1
        out[k] = disk.durable()
    return out


def materialize(root: Path, state: tuple) -> None:
    """Make ``root`` hold exactly ``state`` (owned by the sandbox user)."""
    files, dirs = state
    shutil.rmtree(root, ignore_errors=True)
    sandbox.writable_dir(root)
    for d in sorted(dirs, key=len):
        sandbox.writable_dir(Path(d))
    for path, data in files.items():
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_bytes(data)
        if sandbox.sandboxed():
            os.chown(path, sandbox.SANDBOX_UID, sandbox.SANDBOX_GID)


def run_traced(argv: list, cwd: str, root: Path, timeout_sec: float) -> Run:
    """Run ``argv`` as the sandbox user under strace (which stays root), with a clean environment, a time
    limit and leftover processes killed, like lhtb.grading.sandbox.AgentRunner."""
    logdir = Path(tempfile.mkdtemp(prefix="kvtrace-"))
    log = logdir / "trace.txt"
    # strace attaches before the drop to the sandbox user (attaching to another user's process needs a
    # capability containers lack), so the tracee cannot touch the tracer or its root-only log
    drop = ["setpriv", f"--reuid={sandbox.SANDBOX_UID}", f"--regid={sandbox.SANDBOX_GID}", "--clear-groups"]
    cmd = ["strace", "-f", "-qq", "-xx", "-s", str(1 << 20), "--signal=none", "--seccomp-bpf",
           "-o", str(log), "-e", f"trace={SYSCALLS}", *(drop if sandbox.sandboxed() else []), *argv]
    env = dict(sandbox.CLEAN_ENV, PYTHONUNBUFFERED="1")
    with tempfile.TemporaryFile() as stdout_file:
        try:
            process = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stdout_file,
                                       stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            shutil.rmtree(logdir, ignore_errors=True)
            return Run(False, "", f"could not start: {exc}", Trace())
        try:
            status = process.wait(timeout=timeout_sec)
        except subprocess.TimeoutExpired:
            status = None
            os.killpg(process.pid, signal.SIGKILL)
        finally:
            sandbox._kill_leftovers(process.pid)
            process.wait()
        stdout_file.seek(0)
        stdout = stdout_file.read(sandbox.MAX_OUTPUT_BYTES).decode("utf-8", errors="replace")
    text = log.read_text(errors="replace") if log.is_file() else ""
    shutil.rmtree(logdir, ignore_errors=True)
    trace = parse(text, str(root), cwd)
    if status is None:
        return Run(False, stdout, f"timed out after {timeout_sec:g} s", trace)
    return Run(status == 0, stdout, f"exit status {status}", trace)
