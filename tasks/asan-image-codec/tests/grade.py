# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of asan-image-codec: compile the agent's /app sources here with AddressSanitizer and
UndefinedBehaviorSanitizer (the verifier's flags, never the agent's Makefile), then run the sanitized imgtool as
nobody under CPU-time limits on files it never saw:

- valid images of every feature, decoded bit-exactly against tests/kimgref.py (the verifier's own decoder);
- round trips: the agent's encoder on PNM inputs, its output decoded by the verifier's strict decoder;
- proof-of-concept files per bug class, each paired with its clean twin: the pair counts only when the twin
  decodes right AND the malformed file is rejected with exit status 2, no output file and no sanitizer report;
- seeded mutations of small valid files: the agent must agree with the reference (exact output or status 2).

A sanitizer report exits with status 86 (forced through ASAN_OPTIONS/UBSAN_OPTIONS), a crash with a signal: both
fail the case. The graded program may not change how it is graded, checked in layers: its sources may not reach
into the sanitizer runtime (hooks, options, callbacks, attributes that turn instrumentation off), include files
from elsewhere or start other programs; its objects may hold only code and data sections (no loader, preinit or
ifunc entries that would run before the guard); and tests/guard.c, linked ahead of them, installs a seccomp
filter before any of the agent's code runs (no execve or fork: a re-executed imgtool would pick its own sanitizer
options; no handler for the signals a crash raises; no IPC or keyring state that outlives a run). Nothing a run
can learn tells it which case it is given: every decode runs in one seeded order, from a fresh directory with a
random name that is removed afterwards, and nothing outside that directory is writable by the program, so no
state carries from one run to the next.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases  # noqa: E402
import kimgref as K  # noqa: E402

from lhtb.grading import Scorecard, stress  # noqa: E402
from lhtb.grading.sandbox import AgentRunner, read_regular_bytes, work_dir, writable_dir  # noqa: E402

SEED = 424242
APP = Path(os.environ.get("KIMG_VERIFY_APP", "/app"))  # overridable for runs by hand only
PUBLIC = Path(__file__).resolve().parent / "public"  # the verifier's copies of /app/tests/samples
CFLAGS = ["-std=gnu11", "-O1", "-g", "-fno-omit-frame-pointer", "-fsanitize=address,undefined",
          "-fno-sanitize-recover=all"]
SAN_ENV = ["ASAN_OPTIONS=exitcode=86:detect_leaks=0:abort_on_error=0:allow_user_segv_handler=0:symbolize=0"
           ":handle_segv=0:handle_abort=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0",  # a crash: a signal
           "UBSAN_OPTIONS=exitcode=86:halt_on_error=1:print_stacktrace=0"]
RUN_CPU_SEC = 10
RUN_WALL_SEC = 90.0
BUILD_CPU_SEC = 120
BUILD_WALL_SEC = 240.0
MAX_WALL_OUTS = 2  # wall-guard timeouts before every later run fails without starting
AGENT_CPU_BUDGET_SEC = 600.0  # imgtool's runs together (stated in the instruction); builds have their own limit
PER_VALID = 4
PER_POC = 4
PER_ENCODE = 4
FUZZ_CASES = 48
INVALID_STATUS = 2

# what a source may not contain (checked on the preprocessed text of the agent's own files)
# (no word boundaries around attribute names: `__constructor__` is `constructor` to the compiler)
FORBIDDEN_TEXT = re.compile(r"__asan|__ubsan|__lsan|__msan|__tsan|__sanitizer|__interceptor|no_sanitize|"
                            r"no_address_safety|disable_sanitizer|no_instrument|\basm\b|__asm|#\s*pragma|_Pragma|"
                            r"^\s*#\s*(line\b|\d)|weakref|alias_*\s*\(|ifunc|constructor|destructor|"
                            r"section_*\s*\(|visibility_*\s*\(|symver|init_priority|\bretain\b|__retain__")
FORBIDDEN_IMPORTS = re.compile(r"(fork|clone|exec|spawn|system|popen|dl(open|mopen|sym|vsym|_iterate)|syscall|"
                               r"ptrace|signal|sigaction|sigvec|sigset|sigqueue|kill|raise|prctl|rlimit|seccomp|"
                               r"mprotect|pkey_|process_vm|shm|msgget|semget|mq_open|keyctl|add_key|getauxval|"
                               r"_dl_|__libc_|_r_debug|link_map)", re.IGNORECASE)
# sections an object of the agent may hold: code, data, debug information and the sanitizers' own constructors
OWN_SECTIONS = re.compile(r"^(\.text|\.data|\.rodata|\.bss|\.tdata|\.tbss|\.comment|\.note\.GNU-stack|"
                          r"\.note\.gnu\.property|\.eh_frame|\.debug_\w+|\.symtab|\.strtab|\.shstrtab|\.group|"
                          r"\.init_array|\.fini_array|\.gcc_except_table|\.data\.rel\.ro)(\.[\w.]*)?$")
SYSTEM_HEADERS = ("/usr/include/", "/usr/lib/gcc/", "/usr/local/include/")
GUARD = Path(__file__).resolve().parent / "guard.c"
SANDBOX_UID = 65534
SANITIZER_SYMBOL = re.compile(r"^_{2,}(asan|ubsan|lsan|msan|tsan|sanitizer|interceptor)")
LINE_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(line\b|\d)", re.MULTILINE)  # would hide text from own_text
# the program may not replace the C library's allocator or memory/string routines (ASan intercepts those)
LIBC_DEFINED = re.compile(r"^(malloc|calloc|realloc|reallocarray|free|cfree|aligned_alloc|posix_memalign|memalign|"
                          r"valloc|pvalloc|malloc_usable_size|mem(cpy|move|set|cmp|chr|rchr|mem|ccpy|pcpy)|bcopy|bzero|"
                          r"str(len|nlen|cpy|ncpy|cat|ncat|cmp|ncmp|chr|rchr|str|dup|ndup|spn|cspn|pbrk|tok|tok_r|"
                          r"casecmp|ncasecmp|lcpy|lcat|coll|xfrm|error|tol|toul|toll|toull|tod)|explicit_bzero|"
                          r"f?read|f?write|fopen|fclose|open|close|exit|_exit|_Exit|abort|atexit|on_exit|"
                          r"\w*printf|puts|fputs|fputc|putc|putchar|setenv|getenv|unsetenv|__libc_\w+|_init|_fini)$")
INSTRUMENTATION = re.compile(r"^__(asan_(report_|init|version_mismatch_check|register_|unregister_|stack_malloc|"
                             r"stack_free|option_detect_stack_use_after_return|handle_no_return|before_dynamic_init|"
                             r"after_dynamic_init|alloca_poison|allocas_unpoison|set_shadow_|load|store|memcpy|"
                             r"memset|memmove)|ubsan_handle_)")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def own_text(preprocessed: str, build: Path) -> tuple[str, str | None]:
    """The preprocessed lines from the agent's own files (not the system headers), macros expanded, and the
    first file included from anywhere else (a file outside the build directory would escape the scan). With -g
    gcc also names its working directory (``# 0 "BUILD//"``): a marker, not a file."""
    keep, own, stray = [], True, None
    for line in preprocessed.splitlines():
        marker = re.match(r'# \d+ "([^"]*)"', line)
        if marker:
            name = marker.group(1)
            own = not name.startswith(("/", "<"))
            system = (name.startswith(SYSTEM_HEADERS) and ".." not in name) or name == f"{build}//"
            if stray is None and not (system or name.startswith("<") or (own and ".." not in name)):
                stray = name
        elif own:
            keep.append(line)
    return "\n".join(keep), stray


def object_problem(path: Path) -> str | None:
    """What in one of the agent's objects could run before the guard or outside the sanitizers' view."""
    listing = subprocess.run(["readelf", "-SW", str(path)], capture_output=True, text=True)
    symbols = subprocess.run(["nm", str(path)], capture_output=True, text=True)
    if listing.returncode != 0 or symbols.returncode != 0:
        return f"cannot read {path.name}"
    for line in listing.stdout.splitlines():
        found = re.match(r"\s*\[\s*\d+\]\s+(\S+)", line)
        if found and found.group(1) != "NULL":
            name = found.group(1).removeprefix(".rela")
            if name and not OWN_SECTIONS.match(name):
                return f"{path.name} has a {found.group(1)} section: only code and data are allowed"
    for line in symbols.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] == "i":
            return f"{path.name} defines an indirect function ({parts[-1]})"
    return None


def seal(keep: Path) -> None:
    """Nothing outside ``keep`` stays writable by the sandbox user: no file or directory it owns, none writable
    by all (devices excepted), so a run cannot leave anything for a later one to read."""
    skip = {"/proc", "/sys", "/dev/pts"}
    for base, dirs, files in os.walk("/", topdown=True, followlinks=False):
        dirs[:] = [d for d in dirs if os.path.join(base, d) not in skip and not os.path.join(base, d).startswith(
            str(keep))]
        for name in [*dirs, *files, "."] if base == "/" else [*dirs, *files]:
            path = os.path.join(base, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode) or not (stat.S_ISDIR(info.st_mode) or stat.S_ISREG(info.st_mode)):
                continue
            try:
                if info.st_uid == SANDBOX_UID or info.st_gid == SANDBOX_UID:
                    os.lchown(path, 0, 0)
                if info.st_mode & 0o022:
                    os.chmod(path, stat.S_IMODE(info.st_mode) & ~0o022)
            except OSError:
                continue


class Lab:
    def __init__(self) -> None:
        self.work = work_dir("kimg-")
        self.runner = AgentRunner(str(self.work), timeout_sec=RUN_WALL_SEC, max_timeouts=MAX_WALL_OUTS)
        self.work.chmod(0o711)  # traversable, not listable: a run cannot count its siblings
        self.names = stress.rng(stress.seed_from_env(SEED), "directory names")
        self.binary: Path | None = None
        self.notes: list[str] = []
        self.tool_cpu = 0.0  # CPU seconds of imgtool's runs only: not the builds, not the verifier's own tools

    def run(self, argv: list[str], cpu_sec: int = RUN_CPU_SEC, cwd: Path | None = None):
        tool = cpu_sec == RUN_CPU_SEC
        if tool and self.tool_cpu > AGENT_CPU_BUDGET_SEC:
            return None
        self.runner.cwd = str(cwd or self.work)
        # the wall clock only guards against programs that sleep or wait: CPU time (prlimit) decides
        self.runner.timeout_sec = RUN_WALL_SEC if tool else BUILD_WALL_SEC
        limit = f"--cpu={cpu_sec}:{cpu_sec + 2}"
        before = children_cpu()
        run = self.runner.run(["/usr/bin/env", *SAN_ENV, "/usr/bin/prlimit", limit, "--", *argv])
        if tool:
            self.tool_cpu += children_cpu() - before
        return run

    # ---- building
    def build(self) -> str:
        build = writable_dir(self.work / "build")
        (build / "include").mkdir()
        (build / "include").chmod(0o755)
        sources = []
        for folder, target in ((APP / "src", build), (APP / "include", build / "include")):
            for path in sorted(folder.glob("*")) if folder.is_dir() else []:
                if path.suffix not in (".c", ".h") or path.is_symlink():
                    continue
                data = read_regular_bytes(path)
                if data is None:
                    continue
                if LINE_DIRECTIVE.search(data):
                    return f"{path.name}: #line directives are not allowed"
                (target / path.name).write_bytes(data)
                (target / path.name).chmod(0o644)
                if path.suffix == ".c" and folder.name == "src":
                    sources.append(path.name)
        if not sources:
            return "no C sources in /app/src"
        for name in sources:
            pre = self.run(["gcc", *CFLAGS, "-Iinclude", "-E", "-o", name[:-2] + ".i", name], BUILD_CPU_SEC, cwd=build)
            text = read_regular_bytes(build / (name[:-2] + ".i"), 64 << 20) if pre is not None and pre.ok else None
            if text is None or len(text) >= 64 << 20:
                return f"gcc -E failed on {name}"
            own, stray = own_text(text.decode("utf-8", errors="replace"), build)
            if stray is not None:
                return f"{name} includes {stray}: only /app/src, /app/include and system headers may be included"
            found = FORBIDDEN_TEXT.search(own)
            if found:
                return f"forbidden construct in {name}: {found.group(0)!r}"
        objects = []
        for name in sources:
            obj = name[:-2] + ".o"
            run = self.run(["gcc", *CFLAGS, "-Iinclude", "-c", "-o", obj, name], BUILD_CPU_SEC, cwd=build)
            if run is None or not run.ok:
                return f"gcc failed on {name}"
            objects.append(obj)
            problem = object_problem(build / obj)
            if problem:
                return problem
        for obj in objects:
            nm = subprocess.run(["nm", "-g", str(build / obj)], capture_output=True, text=True)
            if nm.returncode != 0:
                return f"nm failed on {obj}"
            for line in nm.stdout.splitlines():
                parts = line.split()
                if not parts:
                    continue
                name, undefined = parts[-1].split("@")[0], len(parts) == 2 and parts[0] in ("U", "w", "v")
                if not undefined and LIBC_DEFINED.match(name):
                    return f"{obj} defines {name}: replacing C library functions is not allowed"
                if undefined and FORBIDDEN_IMPORTS.search(name):
                    return f"{obj} calls {name}: starting programs or handling signals is not allowed"
                if SANITIZER_SYMBOL.match(name):
                    if not (undefined and INSTRUMENTATION.match(name)):
                        return f"{obj} touches the sanitizer runtime ({name})"
        guard = subprocess.run(["gcc", "-O2", "-c", "-o", str(build / "guard.o"), str(GUARD)], capture_output=True)
        if guard.returncode != 0:
            raise RuntimeError(f"the verifier's guard did not build: {guard.stderr[-500:]!r}")
        (build / "guard.o").chmod(0o644)
        # the guard first: its .preinit_array entry runs before anything the agent's objects could run
        run = self.run(["gcc", *CFLAGS, "-o", "imgtool", "guard.o", *objects], BUILD_CPU_SEC, cwd=build)
        data = read_regular_bytes(build / "imgtool") if run is not None and run.ok else None
        if not data:
            return "link failed"
        # a root-owned copy: nothing the agent's code runs later (its Makefile included) can replace it
        binary = Path(tempfile.mkdtemp(prefix="kimg-bin-")) / "imgtool"
        binary.parent.chmod(0o755)
        binary.write_bytes(data)
        binary.chmod(0o755)
        self.binary = binary
        shutil.rmtree(build, ignore_errors=True)
        return "built"

    def make_builds(self) -> bool:
        """`make asan` in a copy of /app (as nobody) leaves an executable build/imgtool-asan."""
        copy = self.work / "make"
        try:
            shutil.copytree(APP, copy, symlinks=True, ignore=shutil.ignore_patterns("build", ".git"))
        except (OSError, shutil.Error):
            return False
        for base, dirs, files in os.walk(copy):
            for name in dirs + files + ["."]:
                path = os.path.join(base, name)
                if not os.path.islink(path):
                    os.chown(path, 65534, 65534) if os.geteuid() == 0 else None
        run = self.run(["make", "asan"], BUILD_CPU_SEC, cwd=copy)
        target = copy / "build" / "imgtool-asan"
        built = bool(run and run.ok and target.is_file() and not target.is_symlink() and os.access(target, os.X_OK))
        shutil.rmtree(copy, ignore_errors=True)
        return built

    # ---- running the sanitized tool
    def _inputs(self, data: bytes, suffix: str) -> tuple[Path, Path]:
        case = writable_dir(self.work / f"{self.names.getrandbits(96):024x}")
        src = case / f"in{suffix}"
        src.write_bytes(data)
        src.chmod(0o644)
        return src, case / "out"

    def decode(self, data: bytes) -> tuple[int | None, bytes | None, bool]:
        """(exit status or None, output bytes or None, output path exists)"""
        if self.binary is None:
            return None, None, False
        src, out = self._inputs(data, ".kimg")
        run = self.run([str(self.binary), "decode", str(src), str(out)])
        if run is None:
            return None, None, False
        status = int(run.note.split()[-1]) if run.note.startswith("exit status") else None
        exists = os.path.lexists(out)
        got = read_regular_bytes(out, 256 << 20) if exists else None
        shutil.rmtree(src.parent, ignore_errors=True)
        return status, got, exists

    def decoded_right(self, label: str, data: bytes, expected: bytes) -> bool:
        status, got, _ = self.decode(data)
        if status == 0 and got == expected:
            return True
        self.notes.append(f"{label}: {'wrong output' if status == 0 else f'exit status {status}'}")
        return False

    def rejected(self, label: str, data: bytes) -> bool:
        status, _, exists = self.decode(data)
        if status == INVALID_STATUS and not exists:
            return True
        why = "output file left behind" if status == INVALID_STATUS else f"exit status {status}"
        self.notes.append(f"{label}: {why}")
        return False

    def encode(self, case: dict) -> bytes | None:
        if self.binary is None:
            return None
        src, out = self._inputs(case["pnm"], ".pnm")
        run = self.run([str(self.binary), "encode", str(src), str(out), *case["args"]])
        got = read_regular_bytes(out, 256 << 20) if run is not None and run.ok else None
        shutil.rmtree(src.parent, ignore_errors=True)
        return got


def public_cases() -> list[tuple[str, bytes, bytes | None]]:
    """(name, file, expected PNM or None for a file that must be rejected) from the verifier's copies."""
    out = []
    for path in sorted(PUBLIC.glob("*.kimg")):
        expected = path.with_suffix(".pnm")
        out.append((path.stem, path.read_bytes(), expected.read_bytes() if expected.is_file() else None))
    return out


def hidden_poc(seed: int, family: str, index: int):
    for attempt in range(20):
        rng = stress.rng(seed, "poc", family, index, attempt)
        try:
            return cases.poc_case(rng, family, index)
        except (RuntimeError, ValueError, IndexError, StopIteration):
            continue
    raise RuntimeError(f"no {family} case for seed {seed}")


def hidden_valid(seed: int, family: str, index: int):
    for attempt in range(20):
        try:
            return cases.valid_case(stress.rng(seed, "valid", family, index, attempt), family)
        except (RuntimeError, ValueError, IndexError, StopIteration):
            continue
    raise RuntimeError(f"no {family} case for seed {seed}")


def main() -> None:
    card = Scorecard()
    seed = stress.seed_from_env(SEED)
    card.metadata["seed"] = seed
    lab = Lab()

    status = lab.build()
    card.binary("sanitized_build", 0.25, status == "built", visibility="public",
                detail=f"the verifier's ASan+UBSan build of /app/src: {status}")
    card.binary("make_asan", 0.25, lab.make_builds, visibility="public",
                detail="`make asan` builds build/imgtool-asan")
    seal(lab.work)  # from here on the program can write only into the directory of the case it is given

    # Every decode in one order drawn from the seed, so neither a case's position nor anything a run could count
    # says what kind of case it is (its clean twin may come before or after a malformed file).
    decodes: list[tuple[str, bytes, bytes | None]] = []  # (label, file, expected PNM or None: must be rejected)
    decodes += [(f"public {name}", data, expected) for name, data, expected in public_cases()]
    for family in cases.VALID:
        decodes += [(f"valid {family} #{i}", *hidden_valid(seed, family, i)) for i in range(PER_VALID)]
    pocs = {family: [hidden_poc(seed, family, i) for i in range(PER_POC)] for family in cases.POC}
    for family, found in pocs.items():
        for i, (clean, expected, bad) in enumerate(found):
            decodes += [(f"poc {family} #{i}", bad, None), (f"poc {family} #{i} (clean twin)", clean, expected)]
    decodes += [(f"fuzz #{i}", *cases.fuzz_case(stress.rng(seed, "fuzz", i), i)) for i in range(FUZZ_CASES)]
    order = list(range(len(decodes)))
    stress.rng(seed, "decode order").shuffle(order)
    verdict: dict[str, bool] = {}
    for index in order:
        label, data, expected = decodes[index]
        verdict[label] = lab.rejected(label, data) if expected is None else lab.decoded_right(label, data, expected)

    card.fraction("public_samples", 0.5, [verdict[label] for label, _, _ in decodes if label.startswith("public ")],
                  visibility="public", detail="/app/tests/samples: decoded exactly, or rejected with status 2")
    for family in cases.VALID:
        card.fraction(f"decode_{family}", 0.6, [verdict[f"valid {family} #{i}"] for i in range(PER_VALID)],
                      detail=f"valid {family} images decoded bit-exactly")

    for family in cases.ENCODE:
        results = []
        for i in range(PER_ENCODE):
            case = cases.encode_case(stress.rng(seed, "encode", family, i), family, i)
            why = cases.check_encoded(case, lab.encode(case))
            if why:
                lab.notes.append(f"{family} #{i}: {why}")
            results.append(why is None)
        card.fraction(family, 0.5, results, detail="round trip: encoded, then decoded by the verifier's decoder")

    for family in cases.POC:
        pairs = [verdict[f"poc {family} #{i}"] and verdict[f"poc {family} #{i} (clean twin)"] for i in range(PER_POC)]
        card.fraction(f"poc_{family}", 0.5, pairs,
                      detail="malformed file rejected with status 2, no output, no sanitizer report; twin decoded")
    card.fraction("fuzz_mutations", 1.5, [verdict[f"fuzz #{i}"] for i in range(FUZZ_CASES)],
                  detail="mutated files: same verdict and output as the reference")

    if lab.notes:
        print("notes:\n  " + "\n  ".join(lab.notes[:300]), file=sys.stderr)
    card.write()


if __name__ == "__main__":
    main()
