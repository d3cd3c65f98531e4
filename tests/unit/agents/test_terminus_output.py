"""What the model sees: new output only, truncated head + tail with the omission stated."""

from __future__ import annotations

from lhtb.agents.terminus.output import OutputTracker, truncate_middle


def test_truncate_middle_states_the_omission() -> None:
    text = "A" * 100 + "B" * 100
    cut = truncate_middle(text, 50)
    assert cut.startswith("A" * 25) and cut.endswith("B" * 25)
    assert "[... 150 characters omitted ...]" in cut
    assert truncate_middle("short", 50) == "short"


def test_only_new_output_is_shown() -> None:
    tracker = OutputTracker(height=5)
    assert tracker.new_output("$") == "$"
    assert tracker.new_output("$ echo hi\nhi\n$") == "$ echo hi\nhi\n$"
    assert tracker.new_output("$ echo hi\nhi\n$ ls\nfile\n$") == "$ ls\nfile\n$"
    assert tracker.new_output("$ echo hi\nhi\n$ ls\nfile\n$") == "[no new output]"


def test_scrolled_history_is_aligned_on_the_previous_tail() -> None:
    tracker = OutputTracker(height=3)
    tracker.new_output("old1\nold2\n$ make")
    # the oldest line fell out of tmux's history limit
    assert tracker.new_output("old2\n$ make\nbuilt\n$") == "built\n$"


def test_cleared_screen_falls_back_to_the_visible_screen() -> None:
    tracker = OutputTracker(height=2)
    tracker.new_output("x\n$ clear")
    assert tracker.new_output("a\nb\nc") == "[screen redrawn; current screen]\nb\nc"


def test_long_output_is_truncated() -> None:
    tracker = OutputTracker(height=5, max_chars=100)
    tracker.new_output("$")
    shown = tracker.new_output("$ seq 1000\n" + "\n".join(map(str, range(1000))) + "\n$")
    assert len(shown) < 200 and "characters omitted" in shown and shown.endswith("999\n$")
