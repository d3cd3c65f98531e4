import io
import tarfile
from pathlib import Path

import pytest

from lhtb.environments.tarsafe import safe_extract, sanitize, tar_directory
from lhtb.errors import UnsafeArchiveError


def _tar(*members: tuple[str, str, str]) -> bytes:
    """members: (kind, name, payload-or-linkname) with kind in file/dir/sym/hard/fifo."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as archive:
        for kind, name, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode()
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
                continue
            info.type = {
                "dir": tarfile.DIRTYPE,
                "sym": tarfile.SYMTYPE,
                "hard": tarfile.LNKTYPE,
                "fifo": tarfile.FIFOTYPE,
            }[kind]
            info.linkname = payload
            archive.addfile(info)
    return out.getvalue()


def test_safe_members_pass_through() -> None:
    data = _tar(
        ("dir", "app", ""),
        ("file", "app/a.txt", "hi"),
        ("sym", "app/link", "a.txt"),
        ("hard", "app/h", "app/a.txt"),
    )
    result = sanitize([data])
    assert result.refused == []
    assert result.n_members == 4


@pytest.mark.parametrize(
    ("member", "reason"),
    [
        (("file", "/etc/passwd", "x"), "absolute path"),
        (("file", "app/../../etc/passwd", "x"), "'..'"),
        (("sym", "app/escape", "../../etc"), "symlink escaping"),
        (("sym", "app/abs", "/tests/test.sh"), "symlink to absolute"),
        (("hard", "app/h", "/etc/shadow"), "hard link outside"),
        (("fifo", "app/pipe", ""), "special file"),
    ],
)
def test_unsafe_members_are_refused_and_reported(member: tuple[str, str, str], reason: str) -> None:
    result = sanitize([_tar(("file", "app/ok.txt", "fine"), member)])
    assert result.n_members == 1
    assert len(result.refused) == 1 and reason in result.refused[0]


def test_safe_extract_never_writes_outside(tmp_path: Path) -> None:
    dest = tmp_path / "dest"
    refused = safe_extract(
        _tar(("file", "ok.txt", "1"), ("sym", "evil", "/etc"), ("file", "../outside.txt", "x")), dest
    )
    assert (dest / "ok.txt").read_text() == "1"
    assert not (tmp_path / "outside.txt").exists()
    assert not (dest / "evil").exists()
    assert len(refused) == 2


def test_garbage_is_a_clear_error() -> None:
    with pytest.raises(UnsafeArchiveError, match="not a valid tar"):
        sanitize([b"this is not a tar archive at all" * 40])


def test_size_limit() -> None:
    with pytest.raises(UnsafeArchiveError, match="exceeds"):
        sanitize([b"x" * 100, b"y" * 100], max_bytes=150)


def test_tar_directory_roundtrip(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "f.txt").write_text("content")
    dest = tmp_path / "out"
    assert safe_extract(tar_directory(src), dest) == []
    assert (dest / "sub" / "f.txt").read_text() == "content"
