# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""Verifier of particle-mesh-speedup: build the agent's pm2d with fixed flags, run it on seeded hidden decks
and compare every output with the gold program's; then count the instructions it executes (callgrind) on two
larger decks against the shipped reference path (direct DFT, all-cell deposit) built and counted here too.

Every family's difficulty is fixed by construction: a deck of the uniform, clustered and speed families is
kept only when the shipped code with its direct-DFT path already answers it correctly, a boundary or edge
deck only when that code gets it wrong. Agent programs run as nobody under prlimit CPU limits; instruction
counts, never the clock, decide the speed grade.
"""

from __future__ import annotations

import math
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cases
from compare import compare

from lhtb.grading import Scorecard, stress
from lhtb.grading.sandbox import AgentRunner, read_regular_bytes, read_regular_file, work_dir, writable_dir

SEED = stress.seed_from_env(7301)
HERE = Path(__file__).resolve().parent
APP_SRC = Path("/app/pm2d/src")
CFLAGS = ["-std=c11", "-O2"]
COUNTS = {"uniform": 6, "clustered": 6, "boundary": 6, "edge": 8, "speed": 2}
RUN_CPU_SEC = 20
VALGRIND_CPU_SEC = 120
BUILD_CPU_SEC = 60
AGENT_CPU_BUDGET_SEC = 240
SPEED_BANDS = [(1.0, 0.0), (2.0, 0.25), (4.0, 0.5), (8.0, 1.0)]
LINE_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(line\b|\d)", re.MULTILINE)  # would hide text from own_text
ASM_PATTERN = re.compile(r"\b(asm|__asm|__asm__)\b")
# the only functions the agent's binary may import (libc and libm file, string, memory and math routines)
ALLOWED_IMPORTS = set("""
__libc_start_main __cxa_finalize __gmon_start__ _ITM_deregisterTMCloneTable _ITM_registerTMCloneTable
__stack_chk_fail __errno_location __ctype_b_loc __ctype_tolower_loc __ctype_toupper_loc
stdin stdout stderr fopen fclose fflush fgets fgetc getc ungetc fread fwrite fputs fputc putc puts putchar
fscanf sscanf __isoc99_fscanf __isoc99_sscanf __isoc23_fscanf __isoc23_sscanf fprintf printf sprintf snprintf
vfprintf __fprintf_chk __printf_chk __sprintf_chk __snprintf_chk setvbuf fseek ftell rewind feof ferror
getline getdelim open close read write lseek
strtod strtol strtoul strtoll __isoc23_strtol __isoc23_strtoul __isoc23_strtoll atoi atof atol
strcmp strncmp strlen strspn strcspn strchr strrchr strstr strcpy strncpy strcat strtok memcmp memchr
memset memcpy memmove __memcpy_chk __memset_chk __memmove_chk __strcpy_chk
malloc calloc realloc free aligned_alloc posix_memalign exit abort qsort perror strerror
sin cos tan sincos atan atan2 sqrt fabs fmod floor ceil round lround trunc rint nearbyint exp log pow
hypot remainder copysign fmin fmax frexp ldexp modf
""".split())
VALGRIND_MAGIC = bytes.fromhex("48c1c70348c1c70d48c1c73d48c1c733")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Lab:
    def __init__(self) -> None:
        self.refs = Path(tempfile.mkdtemp(prefix="pm-ref-"))  # root only: the agent's runs never see it
        self.work = work_dir("pm-agent-")
        self.runner = AgentRunner(str(self.work), timeout_sec=60.0, max_timeouts=3)
        self.cpu = 0.0
        self.count = 0
        self.notes: list[str] = []

    # ---- the verifier's own programs ----
    def build_ref(self, name: str, src: Path, extra: list[str]) -> Path:
        out = self.refs / name
        subprocess.run(["gcc", *CFLAGS, *extra, "-o", str(out), *sorted(str(p) for p in src.glob("*.c")), "-lm"],
                       check=True, capture_output=True)
        return out

    def run_ref(self, binary: Path, deck: str) -> str | None:
        self.count += 1
        deck_path, out_path = self.refs / f"deck-{self.count}.in", self.refs / f"deck-{self.count}.out"
        deck_path.write_text(deck)
        done = subprocess.run([str(binary), str(deck_path), str(out_path)], capture_output=True, timeout=600)
        return out_path.read_text() if done.returncode == 0 and out_path.is_file() else None

    def count_ref(self, binary: Path, deck: str) -> int:
        self.count += 1
        deck_path = self.refs / f"deck-{self.count}.in"
        deck_path.write_text(deck)
        cg = self.refs / f"cg-{self.count}.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", str(binary), str(deck_path),
                        str(self.refs / f"deck-{self.count}.out")], check=True, capture_output=True, timeout=900)
        return callgrind_total(cg.read_text())

    # ---- the agent's program ----
    def build_agent(self) -> tuple[Path | None, str]:
        build = writable_dir(self.work / "build")
        sources = []
        for path in sorted(APP_SRC.glob("*")) if APP_SRC.is_dir() else []:
            if path.suffix not in (".c", ".h"):
                continue
            data = read_regular_bytes(path)
            if data is None:
                continue
            if LINE_DIRECTIVE.search(data.decode("utf-8", errors="replace")):
                return None, f"{path.name}: #line directives are not allowed"
            (build / path.name).write_bytes(data)
            (build / path.name).chmod(0o644)
            if path.suffix == ".c":
                sources.append(path.name)
        if not sources:
            return None, "no C sources in /app/pm2d/src"
        run = self.agent(["gcc", *CFLAGS, "-o", "pm2d", *sources, "-lm"], BUILD_CPU_SEC, cwd=build)
        binary = build / "pm2d"
        if run is None or not run.ok or not binary.is_file():
            return None, f"gcc failed ({run.note if run else 'cpu budget spent'})"
        pre = self.agent(["gcc", *CFLAGS, "-E", *sources], BUILD_CPU_SEC, cwd=build)
        if pre is None or not pre.ok:
            return None, "gcc -E failed"
        if ASM_PATTERN.search(own_text(pre.stdout)):
            return None, "inline assembly is not allowed"
        data = read_regular_bytes(binary) or b""
        if VALGRIND_MAGIC in data:
            return None, "valgrind client requests are not allowed"
        nm = subprocess.run(["nm", "-D", "--undefined-only", str(binary)], capture_output=True, text=True)
        imported = {line.split()[-1].split("@")[0] for line in nm.stdout.splitlines() if line.split()}
        extra = sorted(imported - ALLOWED_IMPORTS)
        if nm.returncode != 0 or extra:
            return None, f"imports functions outside the allowed list: {', '.join(extra[:6]) or 'nm failed'}"
        return binary, "built"

    def agent(self, argv: list[str], cpu_sec: int, cwd: Path | None = None):
        if self.cpu >= AGENT_CPU_BUDGET_SEC:
            return None
        self.runner.cwd = str(cwd or self.work)
        self.runner.timeout_sec = 10.0 * cpu_sec + 30.0
        before = children_cpu()
        try:
            return self.runner.run(["/usr/bin/prlimit", f"--cpu={cpu_sec}:{cpu_sec + 2}", "--", *argv])
        finally:
            self.cpu += children_cpu() - before

    def agent_case(self, binary: Path, deck: str, counted: bool = False) -> tuple[str | None, int | None]:
        self.count += 1
        case = writable_dir(self.work / f"case-{self.count}")
        deck_path, out_path, cg = case / "deck.in", case / "deck.out", case / "cg.out"
        deck_path.write_text(deck)
        deck_path.chmod(0o644)
        if counted:
            argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}", str(binary), str(deck_path),
                    str(out_path)]
            run = self.agent(argv, VALGRIND_CPU_SEC, cwd=case)
        else:
            run = self.agent([str(binary), str(deck_path), str(out_path)], RUN_CPU_SEC, cwd=case)
        if run is None or not run.ok:
            return None, None
        total = None
        if counted:
            text = read_regular_file(cg)
            total = callgrind_total(text) if text else None
        return read_regular_file(out_path), total


def own_text(preprocessed: str) -> str:
    """The preprocessed lines that come from the agent's own files, not from the system's headers (glibc's
    use asm labels), with every macro from anywhere expanded in them."""
    keep, own = [], True
    for line in preprocessed.splitlines():
        marker = re.match(r'# \d+ "([^"]*)"', line)
        if marker:
            own = not marker.group(1).startswith("/")
        elif own:
            keep.append(line)
    return "\n".join(keep)


def callgrind_total(text: str) -> int | None:
    for line in text.splitlines():
        if line.startswith("totals:") or line.startswith("summary:"):
            return int(line.split()[1])
    return None


def draw_cases(lab: Lab, gold: Path, shipped: Path) -> dict:
    """Decks per family with the gold output, each family's floor fixed by the shipped direct-DFT code."""
    drawn = {}
    for family, count in COUNTS.items():
        builder = cases.BUILDERS[family]
        should_pass = family in ("uniform", "clustered", "speed")
        accepted = []
        for index in range(8 * count):
            if len(accepted) == count:
                break
            deck = builder(stress.rng(SEED, family, index))
            want = lab.run_ref(gold, deck)
            if want is None:
                continue  # a deck the reference cannot answer is never graded
            passed = compare(deck, lab.run_ref(shipped, deck), want) == ""
            if passed == should_pass:
                accepted.append((deck, want))
        drawn[family] = accepted
    return drawn


def main() -> None:
    card = Scorecard()
    card.metadata["seed"] = SEED
    lab = Lab()
    gold = lab.build_ref("gold", HERE / "gold_src", [])
    shipped = lab.build_ref("shipped", HERE / "shipped_src", ["-DPM_FAST_POISSON=0"])
    drawn = draw_cases(lab, gold, shipped)
    for family, count in COUNTS.items():
        if len(drawn[family]) < count:
            raise RuntimeError(f"only {len(drawn[family])} {family} decks drawn for seed {SEED}")

    binary, build_note = lab.build_agent()
    card.binary("builds", 0.25, binary is not None, visibility="public", detail=build_note)

    def grade_case(label: str, deck: str, want: str) -> bool:
        if binary is None:
            return False
        got, _ = lab.agent_case(binary, deck)
        why = compare(deck, got, want)
        if why:
            lab.notes.append(f"{label}: {why}")
        return not why

    public_deck = (HERE / "public" / "public.in").read_text()
    public_want = lab.run_ref(gold, public_deck)
    card.binary("public_example", 0.5, lambda: grade_case("public", public_deck, public_want), visibility="public")
    for family in ("uniform", "clustered", "boundary", "edge"):
        card.fraction(f"hidden_{family}", 1.5,
                      lambda family=family: [grade_case(f"{family} {i}", deck, want)
                                             for i, (deck, want) in enumerate(drawn[family])])

    def speed() -> float:
        if binary is None:
            return 0.0
        ratios = []
        for i, (deck, want) in enumerate(drawn["speed"]):
            got, total = lab.agent_case(binary, deck, counted=True)
            why = compare(deck, got, want)
            if why or not total:
                lab.notes.append(f"speed {i}: {why or 'no instruction count'}: no speed credit")
                return 0.0
            ratios.append(lab.count_ref(shipped, deck) / total)
            lab.notes.append(f"speed {i}: {ratios[-1]:.2f}x fewer instructions than the reference path")
        return math.exp(sum(math.log(r) for r in ratios) / len(ratios))

    card.banded("instruction_speedup", 3.0, speed, bands=SPEED_BANDS)
    for note in lab.notes[:20]:
        print(note)
    card.write()
    shutil.rmtree(lab.refs, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
