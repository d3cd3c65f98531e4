"""parse_reward_dir's messages when no valid reward file is found: say what was there and why it was refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lhtb.errors import ErrorClass, VerifierError
from lhtb.verifier.reward import MAX_LISTED, parse_reward_dir

REFUSED = "(refused: reward files must be regular files)"


def message_of(directory: Path, **kwargs: object) -> str:
    with pytest.raises(VerifierError) as caught:
        parse_reward_dir(directory, **kwargs)  # type: ignore[arg-type]
    assert caught.value.error_class is ErrorClass.VERIFIER_ERROR
    return str(caught.value)


class TestWhatTheFileWas:
    def test_absolute_symlink_names_its_target(self, tmp_path: Path) -> None:
        (tmp_path / "reward.txt").symlink_to("/etc/x")
        assert message_of(tmp_path) == f"reward.txt: is a symlink to '/etc/x' {REFUSED}"

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
    def test_fifo(self, tmp_path: Path) -> None:
        os.mkfifo(tmp_path / "reward.txt")
        assert message_of(tmp_path) == f"reward.txt: is not a regular file but a FIFO {REFUSED}"

    def test_directory(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").mkdir()
        assert "reward.json: is not a regular file but a directory" in message_of(tmp_path)


class TestRefusedWhenCollected:
    """Collection (tarsafe) drops absolute links and fifos; the parser is told, so it can say so."""

    def test_absolute_symlink(self, tmp_path: Path) -> None:
        message = message_of(
            tmp_path, shown_as="/logs/verifier", refused=["reward.txt: symlink to absolute path /etc/x"]
        )
        assert message == f"/logs/verifier/reward.txt is a symlink to /etc/x {REFUSED}"

    def test_escaping_symlink(self, tmp_path: Path) -> None:
        message = message_of(
            tmp_path, shown_as="/logs/verifier", refused=["reward.json: symlink escaping the root (../x)"]
        )
        assert message == f"/logs/verifier/reward.json is a symlink to ../x, outside the output directory {REFUSED}"

    def test_fifo(self, tmp_path: Path) -> None:
        message = message_of(
            tmp_path, shown_as="/logs/verifier", refused=["reward.txt: special file (device, fifo or socket)"]
        )
        assert message.startswith("/logs/verifier/reward.txt is a special file (device, fifo or socket)")
        assert message.endswith(REFUSED)

    def test_unknown_reason_is_passed_through(self, tmp_path: Path) -> None:
        message = message_of(tmp_path, shown_as="/out", refused=["reward.txt: NUL byte in name"])
        assert message == "/out/reward.txt was refused when the verifier output was collected: NUL byte in name"

    def test_refused_reward_json_is_not_rescued_by_reward_txt(self, tmp_path: Path) -> None:
        (tmp_path / "reward.txt").write_text("1")
        message = message_of(tmp_path, refused=["reward.json: symlink to absolute path /tmp/r.json"])
        assert "reward.json is a symlink to /tmp/r.json" in message

    def test_a_valid_reward_json_wins_over_a_refused_reward_txt(self, tmp_path: Path) -> None:
        (tmp_path / "reward.json").write_text('{"reward": 0.5}')
        parsed = parse_reward_dir(tmp_path, refused=["reward.txt: symlink to absolute path /etc/x"])
        assert parsed.reward == 0.5

    def test_other_refused_members_are_listed(self, tmp_path: Path) -> None:
        message = message_of(tmp_path, refused=["scores/link: symlink to absolute path /etc/shadow"])
        assert "neither reward.json nor reward.txt" in message
        assert "refused when collected: scores/link: symlink to absolute path /etc/shadow" in message


class TestNothingValidFound:
    def test_crlf_name_gets_a_hint(self, tmp_path: Path) -> None:
        (tmp_path / "reward.txt\r").write_text("1\r\n")
        message = message_of(tmp_path, shown_as="/logs/verifier")
        assert message.startswith("/logs/verifier: the verifier wrote neither reward.json nor reward.txt")
        assert "found 'reward.txt\\r': a CRLF line ending in test.sh?" in message

    def test_wrong_case_gets_a_hint(self, tmp_path: Path) -> None:
        (tmp_path / "Reward.JSON").write_text("{}")
        assert "found 'Reward.JSON': the name must be exactly reward.json" in message_of(tmp_path)

    def test_empty_directory(self, tmp_path: Path) -> None:
        assert message_of(tmp_path).endswith("; the directory was empty")

    def test_listing_names_kinds_and_is_bounded(self, tmp_path: Path) -> None:
        for index in range(MAX_LISTED + 5):
            (tmp_path / f"file{index:02d}.log").write_text("x")
        (tmp_path / "a-dir").mkdir()
        message = message_of(tmp_path)
        assert "the directory held: a-dir (directory), file00.log, file01.log" in message
        assert f"file{MAX_LISTED - 2:02d}.log and more" in message
        assert f"file{MAX_LISTED:02d}.log" not in message

    def test_odd_names_are_quoted_and_shortened(self, tmp_path: Path) -> None:
        (tmp_path / "[red]x\x1b[0m").write_text("x")
        (tmp_path / ("y" * 200)).write_text("x")
        message = message_of(tmp_path)
        assert "'[red]x\\x1b[0m'" in message
        assert "\x1b" not in message
        assert "y" * 77 + "..." in message and "y" * 81 not in message
