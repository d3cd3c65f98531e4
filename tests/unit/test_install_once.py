"""``lhtb.fs.install_once``: the caches of agents' runtimes, npm CLIs and the model proxy are built once, whole."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from lhtb.fs import install_once


def test_trials_setting_up_at_once_build_it_once(tmp_path: Path) -> None:
    builds: list[int] = []

    def build(partial: Path) -> None:
        builds.append(1)
        time.sleep(0.2)  # the others arrive while this one builds
        (partial / "payload").write_text("x")
        (partial / "done").write_text("")

    results: list[tuple[Path, bool]] = []

    def set_up() -> None:
        results.append(install_once(tmp_path / "e", build, done="done"))

    threads = [threading.Thread(target=set_up) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(builds) == 1 and sorted(built for _, built in results) == [False, False, True]
    assert (tmp_path / "e" / "payload").read_text() == "x" and not (tmp_path / "e.partial").exists()


def test_a_crashed_build_leaves_nothing_that_counts_and_the_next_try_starts_clean(tmp_path: Path) -> None:
    def crash(partial: Path) -> None:
        (partial / "half").write_text("")
        raise OSError("disk full")

    with pytest.raises(OSError):
        install_once(tmp_path / "e", crash, done="done")
    assert not (tmp_path / "e").exists()

    def build(partial: Path) -> None:
        assert not (partial / "half").exists()  # the crashed attempt's files are gone
        (partial / "done").write_text("")

    assert install_once(tmp_path / "e", build, done="done") == (tmp_path / "e", True)


def test_a_build_that_forgets_its_marker_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="did not write done"):
        install_once(tmp_path / "e", lambda partial: None, done="done")
