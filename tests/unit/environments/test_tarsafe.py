import io
import resource
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from lhtb.environments.tarsafe import MAX_REFUSED_LISTED, safe_extract, sanitize, tar_directory
from lhtb.errors import ArtifactsRefusedError, ErrorClass, UnsafeArchiveError


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


def test_tar_directory_roundtrip(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "sub" / "f.txt").write_text("content")
    dest = tmp_path / "out"
    assert safe_extract(tar_directory(src), dest) == []
    assert (dest / "sub" / "f.txt").read_text() == "content"


# --- limits, streaming and link integrity (integrity round 2, holes 3 and 4) ---------------------------------


def _lazy_tar(name: str, size: int, *, chunk: int = 1024 * 1024) -> Iterator[bytes]:
    """A one-file tar of ``size`` zero bytes, produced chunk by chunk (never whole in memory)."""
    info = tarfile.TarInfo(name)
    info.size = size
    yield info.tobuf(format=tarfile.GNU_FORMAT)
    zeros = bytes(chunk)
    left = size
    while left > 0:
        piece = min(left, chunk)
        yield zeros if piece == chunk else bytes(piece)
        left -= piece
    yield bytes(-size % 512) + bytes(1024)


def _hwm_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_huge_apparent_size_is_refused_from_the_header_without_reading_it() -> None:
    consumed = 0

    def counted() -> Iterator[bytes]:
        nonlocal consumed
        for piece in _lazy_tar("app/big.bin", 3 * 1024**3):
            consumed += len(piece)
            yield piece

    with pytest.raises(ArtifactsRefusedError, match=r"size limit .* biggest member is app/big.bin \(3221225472"):
        sanitize(counted())
    assert consumed < 64 * 1024 * 1024  # stopped at the header, not after 3 GiB of zeros


def test_size_limit_counts_apparent_sizes_across_members() -> None:
    data = _tar(("file", "a", "x" * 100), ("file", "b", "y" * 100))
    assert sanitize([data], max_bytes=10_000).n_members == 2
    with pytest.raises(UnsafeArchiveError, match="exceed the size limit") as caught:
        sanitize([data], max_bytes=150 + 512)
    assert caught.value.error_class is ErrorClass.ARTIFACTS_REFUSED


def test_member_limit() -> None:
    data = _tar(*[("file", f"f{i}", "") for i in range(5)])
    with pytest.raises(ArtifactsRefusedError, match="more than 4 files"):
        sanitize([data], max_members=4)


def test_memory_stays_flat_while_streaming_a_large_archive() -> None:
    size = 384 * 1024**2
    before = _hwm_kib()
    result = sanitize(_lazy_tar("app/zeros.bin", size))
    grown_mib = (_hwm_kib() - before) / 1024
    assert result.n_members == 1 and result.size >= size
    assert grown_mib < 64, f"sanitizing {size >> 20} MiB grew the peak RSS by {grown_mib:.0f} MiB"
    with tarfile.open(fileobj=result.reader(), mode="r|") as archive:
        member = archive.next()
        assert member is not None and member.size == size
    result.close()


@pytest.mark.parametrize(
    "members",
    [
        [("sym", "app/abs", "/etc/shadow"), ("hard", "app/h", "app/abs")],  # target refused: absolute symlink
        [("fifo", "app/pipe", ""), ("hard", "app/h", "app/pipe")],  # target refused: fifo
        [("hard", "app/h", "app/never-there")],  # target absent
        [("hard", "app/h", "app/later"), ("file", "app/later", "x")],  # target only after the link
        [("dir", "app/d", ""), ("hard", "app/h", "app/d")],  # hard link to a directory
    ],
)
def test_dangling_hard_links_are_refused(members: list[tuple[str, str, str]], tmp_path: Path) -> None:
    result = sanitize([_tar(("dir", "app", ""), *members)])
    assert any(item.startswith("app/h: hard link to a member") for item in result.refused), result.refused
    # What is kept always extracts.
    safe_extract(result, tmp_path / "out")
    assert not (tmp_path / "out" / "app" / "h").exists()


def test_hard_link_to_a_kept_file_survives(tmp_path: Path) -> None:
    result = sanitize([_tar(("file", "app/a", "hi"), ("hard", "app/h", "./app/a"), ("hard", "app/h2", "app/h"))])
    assert result.refused == []
    safe_extract(result, tmp_path / "out")
    assert (tmp_path / "out" / "app" / "h2").read_text() == "hi"


def test_duplicates_names_and_paths_under_files_are_refused(tmp_path: Path) -> None:
    result = sanitize(
        [
            _tar(
                ("file", "app/x", "first"),
                ("file", "app/x", "second"),
                ("dir", "app/x/", ""),
                ("file", "app/x/y", "under a file"),
                ("sym", "app/s", "x"),
                ("file", "app/s/z", "under a symlink"),
                ("file", "app/new\nline", "kept"),
            )
        ]
    )
    reasons = "\n".join(result.refused)
    assert reasons.count("duplicate member") == 2
    assert "app/x/y: inside app/x, which is not a directory" in reasons
    assert "app/s/z: inside app/s" in reasons
    assert result.n_members == 3
    safe_extract(result, tmp_path / "out")
    assert (tmp_path / "out" / "app" / "x").read_text() == "first"
    assert (tmp_path / "out" / "app" / "new\nline").read_text() == "kept"


def test_refusals_are_listed_up_to_a_bound() -> None:
    result = sanitize([_tar(*[("fifo", f"p{i}", "") for i in range(MAX_REFUSED_LISTED + 5)])])
    assert len(result.refused) == MAX_REFUSED_LISTED and result.n_refused == MAX_REFUSED_LISTED + 5


def test_readers_of_one_archive_never_move_each_other() -> None:
    """QA's load gate uploads one snapshot to two verifiers at once: each upload reads the archive through a reader
    of its own. With one shared file, the second's seek moved the first mid-upload, after the first's HTTP client
    had declared a Content-Length: the engine waited for the rest until the client's read timeout."""
    members = [("file", f"f{i}", chr(65 + i) * (50_000 + i)) for i in range(8)] + [("file", "last", "tail")]
    sanitized = sanitize([_tar(*members)])
    whole = sanitized.data
    assert len(whole) == sanitized.size  # every byte written reaches the readers (the writer's buffer flushed)
    with tarfile.open(fileobj=io.BytesIO(whole)) as archive:  # the whole archive, its small last member too
        assert [(m.name, archive.extractfile(m).read().decode()) for m in archive] == [(n, c) for _, n, c in members]
    first, second = sanitized.reader(), sanitized.reader()
    got_first, got_second = [first.read(7_000)], [second.read(3_000)]
    assert first.tell() == 7_000 and second.tell() == 3_000
    while piece := first.read(10_000):  # interleaved, as two upload threads read
        got_first.append(piece)
        got_second.append(second.read(10_000))
    got_second.append(second.read())
    assert b"".join(got_first) == whole and b"".join(got_second) == whole
    first.seek(0, io.SEEK_END)
    assert first.tell() == len(whole) == sanitized.reader().seek(0, io.SEEK_END)
    first.close()
    assert sanitized.reader().read() == whole  # a reader's close leaves the archive open
    sanitized.close()
