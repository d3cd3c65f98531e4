"""Generate the bad-input corpus: a valid base task and the mutations that break it, each with its outcome.

Every case writes one dataset directory (the case's task or tasks; the test adds a good task beside them) and
says exactly what loading it must give: which directories are invalid and the fragments their message must
contain (always the offending file's path, and the field or the cause), which load (with which notes), or
that the dataset path itself is refused. ``tests/unit/test_bad_input_corpus.py`` runs every case.

Adding a case:
- a task.toml field: add it to ``FIELDS`` with its kind; every mutation of that kind is generated for it;
- a new kind of bad value: add it to ``MUTATIONS`` (literal, and whether it is invalid for the kind);
- anything else: write a ``_build`` function that mutates the base task (or the dataset) and append a
  ``Case`` in the matching ``_*_cases`` function. Case ids must stay unique; the list is deterministic.

``python tests/badinput/generate.py OUT_DIR`` writes every case's dataset under OUT_DIR for inspection.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

BAD = "bad"  # the directory of a case's (first) bad task
TOML = f"{{root}}/{BAD}/task.toml"
INSTRUCTION = f"{{root}}/{BAD}/instruction.md"
MIB = 1024 * 1024

# section ("" = top level) -> key -> TOML literal. Valid, small, and resource requests any machine grants.
BASE: dict[str, dict[str, str]] = {
    "": {"version": '"1.0"'},
    "metadata": {"category": '"corpus"'},
    "agent": {"timeout_sec": "60"},
    "verifier": {"timeout_sec": "60"},
    "environment": {"cpus": "1", "memory_mb": "512"},
}


def render_toml(overrides: dict[tuple[str, str], str] | None = None, extra: str = "") -> str:
    """The base task.toml with ``(section, key) -> literal`` replaced or added, then ``extra`` appended."""
    sections = {name: dict(keys) for name, keys in BASE.items()}
    for (section, key), literal in (overrides or {}).items():
        sections.setdefault(section, {})[key] = literal
    lines = [f"{key} = {value}" for key, value in sections.pop("").items()]
    for name, keys in sections.items():
        lines.append(f"[{name}]")
        lines.extend(f"{key} = {value}" for key, value in keys.items())
    return "\n".join(lines) + "\n" + extra


def write_task(root: Path, name: str, toml: str | None = None) -> Path:
    """A valid task in the Harbor layout (``toml`` replaces its task.toml)."""
    task = root / name
    for sub in ("environment", "tests", "solution"):
        (task / sub).mkdir(parents=True, exist_ok=True)
    (task / "task.toml").write_text(render_toml() if toml is None else toml, encoding="utf-8")
    (task / "instruction.md").write_text(f"Task {name}: write hello to /app/out.txt\n", encoding="utf-8")
    (task / "environment" / "Dockerfile").write_text("FROM lhtb/base:bookworm\nWORKDIR /app\n", encoding="utf-8")
    (task / "tests" / "test.sh").write_text("#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n", encoding="utf-8")
    (task / "solution" / "solve.sh").write_text("#!/bin/bash\necho hello > /app/out.txt\n", encoding="utf-8")
    return task


@dataclass(frozen=True)
class Case:
    case_id: str
    build: Callable[[Path], None]  # writes the case's task(s) into the dataset root
    # directory -> fragments its error must contain; "{root}" stands for the dataset root
    invalid: dict[str, tuple[str, ...]] = field(default_factory=dict)
    valid: tuple[str, ...] = ()
    notes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # valid directory -> note fragments
    dataset_error: tuple[str, ...] = ()  # scanning ``path`` itself is refused with these fragments
    path: str = ""  # what is passed as -p, relative to the dataset root
    # Task names (for valid tasks) whose trial names must all differ.
    distinct_trials: tuple[str, ...] = ()


def _toml_case(case_id: str, toml: str, fragments: tuple[str, ...] | None) -> Case:
    """A case whose only change is task.toml; ``fragments`` None means the task must stay valid."""

    def build(root: Path) -> None:
        write_task(root, BAD, toml)

    if fragments is None:
        return Case(case_id, build, valid=(BAD,))
    return Case(case_id, build, invalid={BAD: (TOML, *fragments)})


# ----- every field x every bad value of its kind ---------------------------------------------------------------

# kind -> (mutation name, TOML literal, invalid?)
MUTATIONS: dict[str, list[tuple[str, str, bool]]] = {
    "seconds": [
        ("string-number", '"600"', True),
        ("bool", "true", True),
        ("array", "[60]", True),
        ("table", "{ a = 1 }", True),
        ("negative", "-1", True),
        ("zero", "0", True),
        ("inf", "inf", True),
        ("minus-inf", "-inf", True),
        ("nan", "nan", True),
        ("huge", "1e12", True),
        ("over-a-week", "604801", True),
        ("datetime", "1979-05-27T07:32:00Z", True),
        ("int-ok", "30", False),
        ("float-ok", "30.5", False),
    ],
    "unit": [
        ("string-number", '"1"', True),
        ("bool", "true", True),
        ("negative", "-0.1", True),
        ("zero-ok", "0", False),
        ("inf", "inf", True),
        ("nan", "nan", True),
        ("huge", "1e12", True),
        ("over-one", "1.5", True),
    ],
    "minutes": [
        ("string-number", '"5"', True),
        ("bool", "false", True),
        ("negative", "-5", True),
        ("zero-ok", "0", False),
        ("inf", "inf", True),
        ("nan", "nan", True),
        ("huge", "1e15", True),
    ],
    "cpus": [
        ("string-number", '"1"', True),
        ("bool", "true", True),
        ("negative", "-1", True),
        ("zero", "0", True),
        ("inf", "inf", True),
        ("nan", "nan", True),
        ("huge", "1e12", True),
        ("fraction-ok", "0.5", False),
    ],
    "count": [
        ("string-number", '"1024"', True),
        ("bool", "true", True),
        ("float", "512.5", True),
        ("negative", "-1", True),
        ("zero", "0", True),
        ("inf", "inf", True),
        ("nan", "nan", True),
        ("huge", "1000000000000000", True),
        ("array", "[1]", True),
    ],
    "count0": [
        ("string-number", '"0"', True),
        ("bool", "false", True),
        ("float", "1.5", True),
        ("negative", "-1", True),
        ("zero-ok", "0", False),
        ("huge", "1000000000000", True),
    ],
    "bool": [
        ("string-yes", '"yes"', True),
        ("string-true", '"true"', True),
        ("one", "1", True),
        ("zero", "0", True),
        ("array", "[true]", True),
        ("false-ok", "false", False),
    ],
    "text": [
        ("int", "1", True),
        ("bool", "true", True),
        ("array", '["a"]', True),
        ("table", '{ a = "b" }', True),
        ("nul", '"a\\u0000b"', True),
    ],
    "enum": [
        ("unknown", '"bogus"', True),
        ("empty", '""', True),
        ("int", "1", True),
        ("wrong-case", '"NONE"', True),
    ],
    "env": [
        ("string", '"A=1"', True),
        ("array", '["A"]', True),
        ("int-value", "{ A = 1 }", True),
        ("bool-value", "{ A = true }", True),
        ("equals-in-name", '{ "A=B" = "1" }', True),
        ("nul-value", '{ A = "a\\u0000" }', True),
        ("ok", '{ A = "1" }', False),
    ],
    "strings": [
        ("string", '"x"', True),
        ("int-items", "[1]", True),
        ("bool-items", "[true]", True),
        ("table", '{ a = "b" }', True),
    ],
    "user": [
        ("bool", "true", True),
        ("negative-uid", "-1", True),
        ("space", '"a b"', True),
        ("empty", '""', True),
        ("array", '["root"]', True),
        ("shell", '"root;rm"', True),
        ("uid-ok", "1000", False),
        ("user-group-ok", '"1000:1000"', False),
    ],
}

FIELDS: list[tuple[str, str, str]] = [
    ("agent", "timeout_sec", "seconds"),
    ("agent", "checkpoint_interval_sec", "seconds"),
    ("verifier", "timeout_sec", "seconds"),
    ("environment", "build_timeout_sec", "seconds"),
    ("agent", "pass_threshold", "unit"),
    ("metadata", "expert_time_estimate_min", "minutes"),
    ("metadata", "junior_time_estimate_min", "minutes"),
    ("environment", "cpus", "cpus"),
    ("environment", "memory_mb", "count"),
    ("environment", "storage_mb", "count"),
    ("environment", "pids_limit", "count"),
    ("environment", "gpus", "count0"),
    ("agent", "continue_until_timeout", "bool"),
    ("verifier", "restart_environment", "bool"),
    ("environment", "allow_internet", "bool"),
    ("task", "allow_git_history", "bool"),
    ("task", "description", "text"),
    ("metadata", "author_name", "text"),
    ("metadata", "category", "text"),
    ("environment", "docker_image", "text"),
    ("", "version", "text"),
    ("metadata", "difficulty", "text"),
    ("verifier", "environment_mode", "enum"),
    ("environment", "network_mode", "enum"),
    ("verifier", "env", "env"),
    ("environment", "env", "env"),
    ("solution", "env", "env"),
    ("metadata", "tags", "strings"),
    ("", "artifacts", "strings"),
    ("agent", "user", "user"),
    ("verifier", "user", "user"),
]


def _field_cases() -> Iterator[Case]:
    for section, key, kind in FIELDS:
        location = f"{section}.{key}" if section else key
        for mutation, literal, invalid in MUTATIONS[kind]:
            toml = render_toml({(section, key): literal})
            yield _toml_case(f"field-{location}-{mutation}", toml, (f"'{location}",) if invalid else None)


def _section_cases() -> Iterator[Case]:
    for section in ("task", "metadata", "agent", "verifier", "environment", "solution"):
        toml = render_toml({(section, "colour"): '"red"'})
        # [task] and [metadata] are descriptive: an unknown key there loads (docs/task-format.md).
        expected = None if section in ("task", "metadata") else (f"unknown key '{section}.colour'",)
        yield _toml_case(f"unknown-key-{section}", toml, expected)
        # The section given as a value instead of a table (and the base's table removed).
        without = _drop_section(render_toml(), section)
        yield _toml_case(f"table-not-table-{section}", f"{section} = 5\n{without}", (f"'{section}'",))
    yield _toml_case("unknown-key-top", render_toml({("", "colour"): '"red"'}), ("unknown key 'colour'",))
    yield _toml_case(
        "unknown-key-typo",
        render_toml({("agent", "continue_untill_timeout"): "true"}),
        ("unknown key 'agent.continue_untill_timeout'",),
    )
    many = "".join(f"k{i} = 1\n" for i in range(5000))
    yield _toml_case("unknown-keys-5000", "[agent]\n" + many, ("unknown key 'agent.k0'", "and 4990 more"))
    yield _toml_case("version-2", render_toml({("", "version"): '"2.0"'}), ("'version'", "unsupported"))
    yield _toml_case("workdir-relative", render_toml({("environment", "workdir"): '"app"'}), ("absolute path",))
    yield _toml_case("workdir-int", render_toml({("environment", "workdir"): "1"}), ("'environment.workdir'",))
    yield _toml_case("artifact-relative", render_toml({("", "artifacts"): '["app"]'}), ("'artifacts'", "absolute"))
    yield _toml_case("artifact-dotdot", render_toml({("", "artifacts"): '["/app/../etc"]'}), ("'artifacts'",))
    yield _toml_case("copies-absolute", render_toml({("verifier", "copies"): '{ "/x" = "y" }'}), ("'verifier.copies'",))
    yield _toml_case("copies-dotdot", render_toml({("verifier", "copies"): '{ "x" = "../y" }'}), ("'verifier.copies'",))
    for name, literal in [("blank", '"   "'), ("empty", '""'), ("newline", '"a\\nb"'), ("long", f'"{"n" * 201}"')]:
        yield _toml_case(f"task-name-{name}", render_toml({("task", "name"): literal}), ("'task.name'",))
    yield _toml_case("task-name-int", render_toml({("task", "name"): "7"}), ("'task.name'",))
    # What this machine cannot grant is refused at load time (the model's own bounds are wider).
    yield _toml_case(
        "cpus-over-machine", render_toml({("environment", "cpus"): "1000"}), ("'environment.cpus'", "machine")
    )
    yield _toml_case(
        "memory-over-machine",
        render_toml({("environment", "memory_mb"): "10000000"}),
        ("'environment.memory_mb'", "machine"),
    )
    yield _toml_case(
        "memory-under-docker-minimum", render_toml({("environment", "memory_mb"): "4"}), ("'environment.memory_mb'",)
    )
    yield _toml_case("empty-task-toml-ok", "", None)


def _drop_section(toml: str, section: str) -> str:
    out, skipping = [], False
    for line in toml.splitlines():
        if line.startswith("["):
            skipping = line == f"[{section}]"
        if not skipping:
            out.append(line)
    return "\n".join(out) + "\n"


# ----- syntax, encodings, nesting, sizes ------------------------------------------------------------------------


def _bytes_case(case_id: str, relative: str, data: bytes, fragments: tuple[str, ...] | None, note: str = "") -> Case:
    def build(root: Path) -> None:
        (write_task(root, BAD) / relative).write_bytes(data)

    named = f"{{root}}/{BAD}/{relative}"
    if fragments is None:
        return Case(case_id, build, valid=(BAD,), notes={BAD: (named, note)} if note else {})
    return Case(case_id, build, invalid={BAD: (named, *fragments)})


def _encoding_cases() -> Iterator[Case]:
    base = render_toml().encode()
    text = b"Write hello to /app/out.txt\n"
    for relative, good in (("task.toml", base), ("instruction.md", text)):
        stem = relative.split(".")[0]
        yield _bytes_case(f"{stem}-latin1", relative, good + "# caf\xe9\n".encode("latin-1"), ("not UTF-8", "0xe9"))
        yield _bytes_case(f"{stem}-binary", relative, bytes(range(256)) * 4, ("NUL byte", "offset 0"))
        yield _bytes_case(f"{stem}-nul-inside", relative, good + b"\x00\n", ("NUL byte", f"offset {len(good)}"))
        yield _bytes_case(f"{stem}-utf16", relative, good.decode().encode("utf-16"), ("UTF-16",))
        yield _bytes_case(f"{stem}-utf32", relative, good.decode().encode("utf-32"), ("UTF-32",))
        yield _bytes_case(f"{stem}-truncated-utf8", relative, good + b"# \xe2\x82", ("not UTF-8",))
        yield _bytes_case(f"{stem}-surrogate", relative, good + b"# \xed\xa0\x80\n", ("not UTF-8", "0xed"))
        yield _bytes_case(f"{stem}-overlong", relative, good + b"# \xc0\xaf\n", ("not UTF-8", "0xc0"))
        yield _bytes_case(f"{stem}-bom-ok", relative, b"\xef\xbb\xbf" + good, None, note="byte-order mark")
        yield _bytes_case(f"{stem}-utf8-ok", relative, good + "# café ✓\n".encode(), None)
    for case_id, toml in [
        ("toml-unclosed-table", "[agent\ntimeout_sec = 1\n"),
        ("toml-duplicate-table", render_toml() + "[agent]\n"),
        ("toml-duplicate-key", render_toml() + "[task]\nname = 'a'\nname = 'b'\n"),
        ("toml-missing-value", "[agent]\ntimeout_sec =\n"),
        ("toml-unterminated-string", '[task]\nname = "abc\n'),
        ("toml-bare-word", "[agent]\ntimeout_sec = sixty\n"),
        ("toml-python-syntax", "agent = {'timeout_sec': 60}\n"),
        ("toml-json", '{"agent": {"timeout_sec": 60}}\n'),
        ("toml-yaml", "agent:\n  timeout_sec: 60\n"),
        ("toml-control-char", '[task]\nname = "a\x01b"\n'),
    ]:
        yield _toml_case(case_id, toml, ("invalid TOML",))
    yield _bytes_case("instruction-empty", "instruction.md", b"", ("instruction is empty",))
    yield _bytes_case("instruction-whitespace", "instruction.md", b" \n\t\n", ("instruction is empty",))
    yield _bytes_case("instruction-bom-only", "instruction.md", b"\xef\xbb\xbf\n", ("instruction is empty",))


def _nesting_cases() -> Iterator[Case]:
    deep = 100_000
    yield _toml_case("nest-arrays-1e5", "x = " + "[" * deep + "]" * deep + "\n", ("nested more than 32",))
    yield _toml_case("nest-arrays-unclosed-1e5", "x = " + "[" * deep + "\n", ("nested more than 32",))
    yield _toml_case("nest-tables-1e4", "x = " + "{a = " * 10_000 + "1" + "}" * 10_000 + "\n", ("nested more than 32",))
    yield _toml_case(
        "nest-tags-33", "[metadata]\ntags = " + "[" * 33 + "]" * 33 + "\n", ("nested more than 32", "line 2")
    )
    yield _toml_case("nest-tags-32", "[metadata]\ntags = " + "[" * 32 + "]" * 32 + "\n", ("'metadata.tags",))
    brackets = "[" * 1000 + "{" * 1000
    yield _toml_case("brackets-in-string-ok", render_toml({("task", "description"): f'"{brackets}"'}), None)
    yield _toml_case("brackets-in-literal-ok", render_toml({("task", "description"): f"'{brackets}'"}), None)
    yield _toml_case("brackets-in-multiline-ok", render_toml({("task", "description"): f'"""\n{brackets}\n"""'}), None)
    yield _toml_case("brackets-in-comment-ok", render_toml() + f"# {brackets}\n", None)
    yield _toml_case("dotted-key-1e4", "[metadata]\n" + ".".join(["a"] * 10_000) + " = 1\n", ("dotted key", "line 2"))
    yield _toml_case("dotted-quoted-key-100", "[metadata]\n" + ".".join(['"a"'] * 100) + " = 1\n", ("dotted key",))
    yield _toml_case("dotted-key-32", "[agent]\n" + ".".join(["a"] * 32) + " = 1\n", ("unknown key 'agent.a'",))
    yield _toml_case("table-header-1e4", "[" + ".".join(["a"] * 10_000) + "]\n", ("dotted key", "line 1"))
    yield _toml_case("table-header-32", "[" + ".".join(["a"] * 32) + "]\n", ("unknown key 'a'",))


def _size_cases() -> Iterator[Case]:
    toml = render_toml()
    yield _toml_case("toml-over-1mib", toml + "#" * MIB + "\n", ("over the limit of 1048576 bytes",))
    yield _toml_case("toml-exactly-1mib-ok", toml + "#" * (MIB - len(toml) - 1) + "\n", None)
    yield _bytes_case("instruction-over-1mib", "instruction.md", b"x" * (MIB + 1), ("over the limit of 1048576",))
    yield _bytes_case("instruction-exactly-1mib-ok", "instruction.md", b"x" * MIB, None)
    yield _toml_case(
        "toml-long-string-over-1mib", render_toml({("task", "description"): f'"{"d" * MIB}"'}), ("over the limit",)
    )


# ----- missing and misplaced files, symlinks --------------------------------------------------------------------


def _task_case(case_id: str, mutate: Callable[[Path, Path], None], fragments: tuple[str, ...] | None) -> Case:
    """A case made by ``mutate(task_dir, outside_dir)`` on the base task; ``outside`` is beside the dataset."""

    def build(root: Path) -> None:
        outside = root.parent / "outside"
        outside.mkdir(exist_ok=True)
        (outside / "test.sh").write_text("#!/bin/bash\necho 1 > /logs/verifier/reward.txt\n")
        (outside / "file.txt").write_text("outside\n")
        mutate(write_task(root, BAD), outside)

    if fragments is None:
        return Case(case_id, build, valid=(BAD,))
    return Case(case_id, build, invalid={BAD: fragments})


def _remove(relative: str) -> Callable[[Path, Path], None]:
    def mutate(task: Path, _outside: Path) -> None:
        target = task / relative
        if target.is_dir():
            for child in sorted(target.rglob("*"), reverse=True):
                child.unlink() if not child.is_dir() else child.rmdir()
            target.rmdir()
        else:
            target.unlink()

    return mutate


def _replace_with_dir(relative: str) -> Callable[[Path, Path], None]:
    def mutate(task: Path, _outside: Path) -> None:
        (task / relative).unlink()
        (task / relative).mkdir()

    return mutate


def _replace_with_fifo(relative: str) -> Callable[[Path, Path], None]:
    def mutate(task: Path, _outside: Path) -> None:
        (task / relative).unlink()
        os.mkfifo(task / relative)

    return mutate


def _link(relative: str, target: Callable[[Path, Path], str], *, remove: bool = True) -> Callable[[Path, Path], None]:
    def mutate(task: Path, outside: Path) -> None:
        path = task / relative
        if remove and (path.is_symlink() or path.exists()):
            _remove(relative)(task, outside)
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target(task, outside), path)

    return mutate


def _file_cases() -> Iterator[Case]:
    task = f"{{root}}/{BAD}"
    for relative in ("instruction.md", "environment/Dockerfile", "tests/test.sh"):
        yield _task_case(f"missing-{relative}", _remove(relative), (f"{task}/{relative}", "required file is missing"))
        yield _task_case(f"dir-{relative}", _replace_with_dir(relative), (f"{task}/{relative}", "regular file"))
        yield _task_case(f"fifo-{relative}", _replace_with_fifo(relative), (f"{task}/{relative}", "regular file"))
    yield _task_case("dir-task.toml", _replace_with_dir("task.toml"), (f"{task}/task.toml", "regular file"))
    yield _task_case("fifo-task.toml", _replace_with_fifo("task.toml"), (f"{task}/task.toml", "regular file"))
    yield _task_case("missing-tests-dir", _remove("tests"), (f"{task}/tests/test.sh", "missing"))
    yield _task_case("missing-environment-dir", _remove("environment"), (f"{task}/environment/Dockerfile", "missing"))
    yield _task_case("missing-solution-ok", _remove("solution"), None)

    def environment_is_file(task_dir: Path, outside: Path) -> None:
        _remove("environment")(task_dir, outside)
        (task_dir / "environment").write_text("FROM x\n")

    yield _task_case("environment-is-file", environment_is_file, (f"{task}/environment/Dockerfile", "Not a directory"))

    def no_task_toml(root: Path) -> None:
        (write_task(root, BAD) / "task.toml").unlink()

    yield Case("missing-task.toml", no_task_toml, invalid={BAD: (TOML, "required file is missing")})


def _link_cases() -> Iterator[Case]:
    task = f"{{root}}/{BAD}"

    def outside_file(_task: Path, outside: Path) -> str:
        return str(outside / "file.txt")

    def outside_dir(_task: Path, outside: Path) -> str:
        return str(outside)

    for sub in ("tests", "environment", "solution"):
        yield _task_case(f"link-{sub}-dir-outside", _link(sub, outside_dir), (f"{task}/{sub}", "is a symlink"))

    def tests_to_inside(task_dir: Path, outside: Path) -> None:
        (task_dir / "tests").rename(task_dir / "verifier")
        os.symlink("verifier", task_dir / "tests")

    yield _task_case("link-tests-dir-inside", tests_to_inside, (f"{task}/tests", "is a symlink"))
    yield _task_case(
        "link-test.sh-outside",
        _link("tests/test.sh", lambda _t, o: str(o / "test.sh")),
        (f"{task}/tests/test.sh", "outside"),
    )
    yield _task_case(
        "link-test.sh-to-solution",
        _link("tests/test.sh", lambda _t, _o: "../solution/solve.sh"),
        (f"{task}/tests/test.sh", "outside", f"{task}/tests"),
    )

    def test_sh_to_sibling(task_dir: Path, outside: Path) -> None:
        (task_dir / "tests" / "test.sh").rename(task_dir / "tests" / "real.sh")
        os.symlink("real.sh", task_dir / "tests" / "test.sh")

    yield _task_case("link-test.sh-inside-tests", test_sh_to_sibling, (f"{task}/tests/test.sh", "not a symlink"))
    yield _task_case(
        "link-test.sh-dangling", _link("tests/test.sh", lambda _t, _o: "nowhere.sh"), (f"{task}/tests/test.sh",)
    )
    yield _task_case(
        "link-tests-helper-inside-ok", _link("tests/helper.sh", lambda _t, _o: "test.sh", remove=False), None
    )
    yield _task_case(
        "link-instruction-outside", _link("instruction.md", outside_file), (f"{task}/instruction.md", "outside")
    )

    def instruction_inside(task_dir: Path, outside: Path) -> None:
        (task_dir / "docs").mkdir()
        (task_dir / "instruction.md").rename(task_dir / "docs" / "instruction.md")
        os.symlink("docs/instruction.md", task_dir / "instruction.md")

    yield _task_case("link-instruction-inside-ok", instruction_inside, None)
    yield _task_case("link-task.toml-outside", _link("task.toml", outside_file), (f"{task}/task.toml", "outside"))
    yield _task_case(
        "link-environment-asset-outside",
        _link("environment/data", lambda _t, _o: "/etc", remove=False),
        (f"{task}/environment/data", "outside"),
    )
    yield _task_case(
        "link-environment-asset-to-tests",
        _link("environment/grader", lambda _t, _o: "../tests/test.sh", remove=False),
        (f"{task}/environment/grader", "outside"),
    )
    yield _task_case(
        "link-dockerfile-dangling",
        _link("environment/Dockerfile", lambda _t, _o: "Dockerfile.real"),
        (f"{task}/environment/Dockerfile", "does not exist"),
    )
    yield _task_case(
        "link-readme-outside",
        _link("README.md", lambda _t, _o: "/etc/passwd", remove=False),
        (f"{task}/README.md", "outside"),
    )

    def loop(task_dir: Path, outside: Path) -> None:
        os.symlink("b", task_dir / "environment" / "a")
        os.symlink("a", task_dir / "environment" / "b")

    yield _task_case("link-loop-inside-ok", loop, None)


# ----- names shared by tasks, names whose trial directories could collide ---------------------------------------


def _named(name: str | None) -> str:
    return render_toml({("task", "name"): f'"{name}"'} if name is not None else None)


def _dataset_case(
    case_id: str,
    names: dict[str, str | None],
    invalid: dict[str, tuple[str, ...]] | None = None,
    distinct: tuple[str, ...] = (),
) -> Case:
    def build(root: Path) -> None:
        for directory, name in names.items():
            write_task(root, directory, _named(name))

    valid = tuple(d for d in names if d not in (invalid or {}))
    return Case(case_id, build, invalid=invalid or {}, valid=valid, distinct_trials=distinct)


def _duplicate_cases() -> Iterator[Case]:
    def names_other(directory: str, other: str) -> tuple[str, ...]:
        return (f"{{root}}/{directory}/task.toml", "unique", f"{{root}}/{other}")

    yield _dataset_case(
        "duplicate-name",
        {"bad": "same", "bad2": "same"},
        {"bad": names_other("bad", "bad2"), "bad2": names_other("bad2", "bad")},
    )
    yield _dataset_case(
        "duplicate-name-three",
        {"bad": "same", "bad2": "same", "bad3": "same"},
        {"bad": names_other("bad", "bad3"), "bad2": names_other("bad2", "bad"), "bad3": names_other("bad3", "bad2")},
    )
    yield _dataset_case(
        "name-is-other-directory",
        {"bad": None, "bad2": "bad"},
        {"bad": names_other("bad", "bad2"), "bad2": names_other("bad2", "bad")},
    )

    def name_of_invalid_directory(root: Path) -> None:
        (write_task(root, "bad") / "task.toml").write_text("[agent\n")
        write_task(root, "bad2", _named("bad"))

    yield Case(
        "name-is-invalid-directory",
        name_of_invalid_directory,
        invalid={"bad": (TOML, "invalid TOML"), "bad2": names_other("bad2", "bad")},
    )
    slug_pairs = [
        ("slug-space-dash", "slug a", "slug-a"),
        ("slug-slash-dash", "a/b", "a-b"),
        ("slug-colon", "x:y", "x-y"),
        ("slug-double-underscore", "a__b", "a_b"),
        ("slug-trailing-dash", "name-", "name"),
        ("slug-leading-underscore", "_name", "name"),
        ("slug-unicode", "café", "caf"),
        ("slug-truncated-80", "t" * 80 + "1", "t" * 80 + "2"),
        ("slug-80-vs-81", "t" * 80, "t" * 81),
        ("slug-tilde", "a~b", "a-b"),
        ("slug-case", "Case", "case"),
    ]
    for case_id, first, second in slug_pairs:
        yield _dataset_case(case_id, {"bad": first, "bad2": second}, distinct=(first, second))


def _dataset_path_cases() -> Iterator[Case]:
    def one_task(root: Path) -> None:
        write_task(root, BAD)

    yield Case(
        "path-is-task.toml", one_task, dataset_error=(TOML, "is a file", f"-p {{root}}/{BAD}"), path=f"{BAD}/task.toml"
    )
    yield Case("path-is-file", one_task, dataset_error=(INSTRUCTION, "is a file"), path=f"{BAD}/instruction.md")
    yield Case("path-missing", one_task, dataset_error=("{root}/nope", "no such"), path="nope")

    def stray(root: Path) -> None:
        (root / "notes.txt").write_text("not a task\n")
        (root / "empty-dir").mkdir()
        (root / "__pycache__").mkdir()
        instructions_only = root / BAD
        instructions_only.mkdir()
        (instructions_only / "instruction.md").write_text("do it\n")

    yield Case("stray-entries", stray, invalid={BAD: (TOML, "required file is missing")})


def all_cases() -> list[Case]:
    cases = [
        *_field_cases(),
        *_section_cases(),
        *_encoding_cases(),
        *_nesting_cases(),
        *_size_cases(),
        *_file_cases(),
        *_link_cases(),
        *_duplicate_cases(),
        *_dataset_path_cases(),
    ]
    ids = [case.case_id for case in cases]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    assert not duplicates, f"case ids must be unique: {duplicates}"
    return cases


def main(out_dir: Path) -> None:
    for case in all_cases():
        root = out_dir / case.case_id / "dataset"
        root.mkdir(parents=True)
        case.build(root)
        write_task(root, "good")
    print(f"{len(all_cases())} cases written under {out_dir}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
