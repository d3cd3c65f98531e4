"""The bounded output reader: the cap holds while reading, every byte is counted, head and tail are kept."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from lhtb.environments.exec_stream import BoundedBuffer, capture_frames

CAP = 1024


def _dropped(text: str) -> tuple[int, int]:
    match = re.search(r"\[\.\.\. (\d+) of (\d+) bytes omitted by lhtb \.\.\.\]", text)
    assert match, text[:200]
    return int(match.group(1)), int(match.group(2))


def test_output_under_the_cap_is_kept_whole() -> None:
    captured = capture_frames([(b"hello ", None), (None, b"oops"), (b"world", None)], CAP)
    assert (captured.stdout, captured.stderr) == ("hello world", "oops")
    assert (captured.stdout_bytes, captured.stderr_bytes, captured.truncated) == (11, 4, False)


def test_exactly_the_cap_is_not_truncated() -> None:
    captured = capture_frames([(b"a" * CAP, None)], CAP)
    assert captured.stdout == "a" * CAP and not captured.truncated


def test_many_small_frames_keep_head_and_tail_and_stay_bounded() -> None:
    buffer = BoundedBuffer(CAP)
    payload = bytes(i % 251 for i in range(100_000))
    for start in range(0, len(payload), 7):
        buffer.feed(payload[start : start + 7])
        assert buffer.held <= buffer.head_limit + 2 * buffer.tail_limit  # bounded while reading
    assert buffer.total == len(payload) and buffer.truncated
    data = buffer.data()
    assert data.startswith(payload[: CAP // 2])
    assert data.endswith(payload[-(CAP - CAP // 2) :])
    assert _dropped(data.decode("latin-1")) == (len(payload) - CAP, len(payload))


def test_one_huge_frame_is_cut_at_once() -> None:
    huge = b"h" * 10 + b"x" * 5_000_000 + b"t" * 10
    buffer = BoundedBuffer(CAP)
    buffer.feed(huge)
    assert buffer.held == CAP
    text = buffer.text()
    assert text.startswith("h" * 10) and text.endswith("t" * 10)
    assert _dropped(text) == (len(huge) - CAP, len(huge))


def test_interleaved_streams_are_capped_and_counted_separately() -> None:
    def frames() -> Iterator[tuple[bytes | None, bytes | None]]:
        for i in range(2_000):
            yield (f"out{i:05d}\n".encode(), None)
            if i % 3 == 0:
                yield (None, f"err{i:05d}\n".encode())

    captured = capture_frames(frames(), CAP)
    assert captured.stdout_bytes == 2_000 * 9
    assert captured.stderr_bytes == len(range(0, 2_000, 3)) * 9
    assert captured.truncated
    assert captured.stdout.startswith("out00000\n") and captured.stdout.endswith("out01999\n")
    assert captured.stderr.startswith("err00000\n") and captured.stderr.endswith("err01998\n")
    assert "err" not in captured.stdout and "out" not in captured.stderr
    assert _dropped(captured.stdout) == (2_000 * 9 - CAP, 2_000 * 9)


def test_the_tail_is_compacted_while_reading_not_after() -> None:
    buffer = BoundedBuffer(CAP)
    peak = 0
    for _ in range(10_000):
        buffer.feed(b"y" * 100)
        peak = max(peak, buffer.held)
    assert buffer.total == 1_000_000
    assert peak <= CAP // 2 + 2 * (CAP - CAP // 2) + 100


def test_split_utf8_at_the_cut_is_replaced_not_raised() -> None:
    buffer = BoundedBuffer(8)
    buffer.feed("ééééééééé".encode())  # 18 bytes: the cut lands inside characters
    assert "omitted by lhtb" in buffer.text()


def test_a_cap_too_small_for_head_and_tail_is_refused() -> None:
    with pytest.raises(ValueError):
        BoundedBuffer(1)
