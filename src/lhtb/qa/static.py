"""Gates that read only the task directory: canary lines, base images, declared metadata."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from lhtb.tasks.loader import Task

CANARY = "6f1c2a7e-lhtb-9b1d-canary"
CANARY_LINE = f"# lhtb-canary GUID {CANARY}"
# Files whose format has comments, so a canary line costs nothing: by suffix, and by exact name.
COMMENT_SUFFIXES = {
    ".py", ".sh", ".bash", ".toml", ".yaml", ".yml", ".cfg", ".ini", ".r", ".pl", ".rb",  # '#'
    ".md", ".html", ".xml",  # '<!-- -->'
    ".c", ".h", ".cc", ".cpp", ".hpp", ".js", ".ts", ".go", ".rs", ".java", ".v", ".sv",  # '//'
}  # fmt: skip
COMMENT_NAMES = {"Dockerfile", "Makefile", "CMakeLists.txt"}
ALLOWED_BASES = re.compile(r"^lhtb/(base|python)(:[\w.-]+)?$")
_FROM = re.compile(r"^\s*FROM\s+(?:--platform=\S+\s+)?(\S+)", re.IGNORECASE | re.MULTILINE)
MAX_TEXT_BYTES = 2 * 1024 * 1024


def files_missing_canary(task: Task) -> list[str]:
    """Task files that support comments but carry no canary (generated build outputs are not in the task dir)."""
    missing = []
    for path in sorted(task.path.rglob("*")):
        if not path.is_file() or path.is_symlink() or "__pycache__" in path.parts:
            continue
        if path.suffix.lower() not in COMMENT_SUFFIXES and path.name not in COMMENT_NAMES:
            continue
        if path.stat().st_size > MAX_TEXT_BYTES:
            continue
        if CANARY not in path.read_text(encoding="utf-8", errors="replace"):
            missing.append(str(path.relative_to(task.path)))
    return missing


def foreign_bases(task: Task) -> list[str]:
    """FROM images other than lhtb's offline bases (they would need a registry)."""
    dockerfile = (task.environment_dir / "Dockerfile").read_text(encoding="utf-8")
    stages = set(re.findall(r"^\s*FROM\s+\S+\s+AS\s+(\S+)", dockerfile, re.IGNORECASE | re.MULTILINE))
    return [base for base in _FROM.findall(dockerfile) if not ALLOWED_BASES.match(base) and base not in stages]


def drifted_copies(task: Task) -> list[str]:
    """Declared verifier copies (``[verifier] copies``) that differ from the original the image ships.

    A file is compared byte for byte; a directory by its set of files (``__pycache__`` ignored) and each file.
    """
    problems = []
    for copy, original in sorted(task.config.verifier.copies.items()):
        ours, theirs = task.tests_dir / copy, task.environment_dir / original
        label = f"tests/{copy} vs environment/{original}"
        if not ours.exists() or not theirs.exists():
            problems.append(f"{label}: missing {'tests/' + copy if not ours.exists() else 'environment/' + original}")
            continue
        left, right = _files_under(ours), _files_under(theirs)
        if left.keys() != right.keys():
            only = sorted(left.keys() ^ right.keys())
            problems.append(f"{label}: not the same files ({', '.join(only[:3])})")
            continue
        differing = [name or ours.name for name in sorted(left) if left[name].read_bytes() != right[name].read_bytes()]
        if differing:
            problems.append(f"{label}: {', '.join(differing[:3])} differ")
    return problems


def _files_under(path: Path) -> dict[str, Path]:
    if path.is_file():
        return {"": path}
    return {
        str(f.relative_to(path)): f
        for f in path.rglob("*")
        if f.is_file() and "__pycache__" not in f.relative_to(path).parts
    }


PUBLIC_COPIES = "public"  # tests/public/: the verifier's own copies of data the agent sees anyway


def content_digests(directories: list[Path], min_bytes: int = 64) -> dict[str, str]:
    """sha256 → relative path of every file in ``directories`` large enough to be distinctive.

    Files under ``<dir>/public/`` are declared copies of public data (e.g. example inputs the image ships, kept
    by the verifier so an agent cannot alter them) and are not treated as hidden.
    """
    import hashlib

    digests: dict[str, str] = {}
    for directory in directories:
        if not directory.is_dir():
            continue
        for path in directory.rglob("*"):
            if path.relative_to(directory).parts[0] == PUBLIC_COPIES:
                continue
            if path.is_file() and not path.is_symlink() and path.stat().st_size >= min_bytes:
                digests[hashlib.sha256(path.read_bytes()).hexdigest()] = (
                    f"{directory.name}/{path.relative_to(directory)}"
                )
    return digests


def seed_readers(task: Task) -> list[str]:
    """The verifier files that take the harness's verify seed (``stress.seed_from_env`` or LHTB_VERIFY_SEED)."""
    found = []
    for path in sorted(task.tests_dir.rglob("*")):
        if path.is_file() and path.suffix in {".py", ".sh"} and "shortcuts" not in path.parts:
            text = path.read_text(encoding="utf-8", errors="replace")
            if "seed_from_env" in text or "LHTB_VERIFY_SEED" in text:
                found.append(str(path.relative_to(task.path)))
    return found


# Names under which a program reports on its own execution: a score computed from them is claimed, not measured.
SELF_REPORT_WORDS = frozenset({
    "nfev", "njev", "nlu", "nsteps", "n_steps", "n_calls", "evaluations", "evals", "n_evals", "iterations",
    "iters", "niter", "nit", "stats", "bytes_written", "bytes_read", "write_bytes", "read_bytes", "writes",
    "reads", "fsyncs", "fsync", "syncs", "io_bytes", "elapsed", "elapsed_sec", "elapsed_ms", "duration",
    "duration_sec", "runtime", "time_sec", "cpu_time", "cpu_sec", "rss", "max_rss", "peak_memory", "memory_mb",
    "work_units",
})  # fmt: skip
_WORD = re.compile(r"[A-Za-z_]+")
_READ_CALLS = frozenset({"get", "pop", "search", "match", "fullmatch", "findall", "finditer", "compile", "startswith"})


def self_reported_reads(task: Task) -> list[str]:
    """``tests/FILE:LINE 'key'`` for every place a verifier looks up a self-report word in the agent's output.

    Looks at string constants used as a subscript, a ``get``/``pop`` key, a regular expression, a ``startswith``
    prefix or an ``in`` test, whose words include one of :data:`SELF_REPORT_WORDS`; keys declared in
    ``[qa.self_report]`` are allowed. A heuristic: it flags the places to look at, the author decides.
    """
    allowed = set(task.config.qa.self_report)
    found: list[str] = []
    for path in sorted(task.tests_dir.rglob("*.py")):
        if "shortcuts" in path.relative_to(task.tests_dir).parts:
            continue
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        for node, constant in _lookups(tree):
            words = {w.lower() for w in _WORD.findall(constant)} & SELF_REPORT_WORDS
            if words and not words <= allowed:
                found.append(f"{path.relative_to(task.path)}:{node.lineno} {constant[:40]!r}")
    return found


def _lookups(tree: ast.AST) -> list[tuple[ast.expr, str]]:
    out: list[tuple[ast.expr, str]] = []

    def text(node: ast.AST) -> str | None:
        return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and (value := text(node.slice)):
            out.append((node, value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in _READ_CALLS and (value := text(node.args[0])) is not None:
                out.append((node, value))
        elif (
            isinstance(node, ast.Compare)
            and any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
            and (value := text(node.left)) is not None
        ):
            out.append((node, value))
    return out
