"""Reading a task's files defensively: bounded sizes, UTF-8 text only, bounded TOML nesting, no escaping links.

Every refusal is a :class:`TaskInvalidError` naming the file and the cause; limits are in docs/task-format.md.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from lhtb.errors import TaskInvalidError

MAX_TOML_BYTES = 1024 * 1024
MAX_INSTRUCTION_BYTES = 1024 * 1024
MAX_TOML_DEPTH = 32  # arrays and inline tables inside each other; real tasks use 2 or 3
MAX_TOML_KEY_PARTS = 32  # a.b.c = ... ; tomllib takes quadratic time in the parts (10,000 parts: 2 s)
# Copied into a container or build context on their own: a link in one of them must stay inside it.
COPIED_DIRS = ("environment", "tests", "solution", "baseline")
UTF8_BOM = b"\xef\xbb\xbf"
_OTHER_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}
_BASIC = r'"(?:\\.|[^"\\\n])*+"'
_LITERAL = r"'[^'\n]*+'"
_BARE = r"[A-Za-z0-9_+:-]++"
# A dotted key too long; then strings, comments and bare words whole (a bracket inside them does not nest, and
# no position inside them starts another match: linear time), then the brackets themselves.
_TOML_TOKENS = re.compile(
    rf"(?P<key>(?:(?:{_BARE}|{_BASIC}|{_LITERAL})[ \t]*+\.[ \t]*+){{{MAX_TOML_KEY_PARTS},}})"
    rf'|"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|{_BASIC}|{_LITERAL}|#[^\n]*+|{_BARE}|[\[\]{{}}]'
)


def read_text(path: Path, max_bytes: int, notes: list[str]) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``; a leading UTF-8 BOM is removed (noted)."""
    try:
        info = path.stat()
    except OSError as exc:
        raise TaskInvalidError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise TaskInvalidError(f"{path}: is not a regular file")
    if info.st_size > max_bytes:
        raise TaskInvalidError(f"{path}: {info.st_size} bytes, over the limit of {max_bytes} bytes for this file")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise TaskInvalidError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    if len(data) > max_bytes:
        raise TaskInvalidError(f"{path}: over the limit of {max_bytes} bytes for this file")
    for bom, encoding in _OTHER_BOMS.items():
        if data.startswith(bom):
            raise TaskInvalidError(f"{path}: is {encoding} text (byte-order mark); save it as UTF-8")
    offset = 0
    if data.startswith(UTF8_BOM):
        data, offset = data[len(UTF8_BOM) :], len(UTF8_BOM)
        notes.append(f"{path}: a UTF-8 byte-order mark at the start was ignored")
    nul = data.find(b"\x00")
    if nul >= 0:
        raise TaskInvalidError(f"{path}: a NUL byte at offset {nul + offset}: not a text file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = data[exc.start]
        raise TaskInvalidError(
            f"{path}: not UTF-8 text: byte 0x{byte:02x} at offset {exc.start + offset} ({exc.reason})"
        ) from exc


def check_toml_nesting(path: Path, text: str) -> None:
    """Refuse arrays/inline tables nested deeper than MAX_TOML_DEPTH, and dotted keys of more than
    MAX_TOML_KEY_PARTS parts, before the parser spends time on them."""
    depth = 0
    for match in _TOML_TOKENS.finditer(text):
        token = match.group()
        if match.group("key"):
            line = text.count("\n", 0, match.start()) + 1
            raise TaskInvalidError(f"{path}: a dotted key of more than {MAX_TOML_KEY_PARTS} parts (line {line})")
        if token in "[{":
            depth += 1
            if depth > MAX_TOML_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                raise TaskInvalidError(
                    f"{path}: arrays or inline tables nested more than {MAX_TOML_DEPTH} deep (line {line})"
                )
        elif token in "]}":
            depth = max(depth - 1, 0)


def _within(target: str, root: Path) -> bool:
    return target == str(root) or target.startswith(str(root) + os.sep)


def check_links(task_dir: Path) -> None:
    """Refuse a symlink that leads outside what is copied with it: the task directory for top-level files,
    the subdirectory itself inside environment/, tests/, solution/ and baseline/ (each is copied alone, links
    stored as links), and a symlink in place of one of those subdirectories."""
    for name in COPIED_DIRS:
        sub = task_dir / name
        if sub.is_symlink():
            raise TaskInvalidError(
                f"{sub}: is a symlink (to {os.readlink(sub)!r}); only the link would be copied: make it a directory"
            )
    for root, dirs, files in os.walk(task_dir, onerror=None, followlinks=False):
        here = Path(root)
        for entry in (*dirs, *files):
            link = here / entry
            if not link.is_symlink():
                continue
            relative = link.relative_to(task_dir)
            top = relative.parts[0]
            scope = task_dir / top if top in COPIED_DIRS and len(relative.parts) > 1 else task_dir
            if not _within(os.path.realpath(link), scope):
                raise TaskInvalidError(
                    f"{link}: a symlink to {os.readlink(link)!r}, outside {scope} (what is copied with it); "
                    "replace it with the file itself"
                )


def require_regular(path: Path, *, follow_links: bool = True) -> None:
    """A required file: present and a regular file (not a directory, fifo, device; not a link if told)."""
    try:
        info = path.stat() if follow_links else path.lstat()
    except FileNotFoundError:
        if path.is_symlink():
            raise TaskInvalidError(f"{path}: a symlink to {os.readlink(path)!r}, which does not exist") from None
        raise TaskInvalidError(f"{path}: required file is missing") from None
    except OSError as exc:
        raise TaskInvalidError(f"{path}: cannot be read: {exc.strerror or exc}") from exc
    if stat.S_ISLNK(info.st_mode):
        raise TaskInvalidError(f"{path}: must be a regular file, not a symlink (to {os.readlink(path)!r})")
    if not stat.S_ISREG(info.st_mode):
        raise TaskInvalidError(f"{path}: must be a regular file")
