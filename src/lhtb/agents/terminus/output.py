"""What the model sees of the terminal: only output new since its last turn, truncated head + tail."""

from __future__ import annotations

DEFAULT_MAX_OUTPUT_CHARS = 10_000
_ANCHOR_CHARS = 500  # tail of the previous capture used to find where new output starts


def truncate_middle(text: str, max_chars: int) -> str:
    """Keep the head and the tail; say how much was cut so the model knows output is missing."""
    if len(text) <= max_chars:
        return text
    half = max_chars // 2
    omitted = len(text) - 2 * half
    return f"{text[:half]}\n[... {omitted} characters omitted ...]\n{text[-half:]}"


def visible_screen(capture: str, height: int) -> str:
    return "\n".join(capture.split("\n")[-height:])


def _after_anchor(previous: str, capture: str) -> str | None:
    """Text after the previous capture's last lines, when old history scrolled out of tmux's limit."""
    lines = previous.split("\n")
    for count in (10, 5, 3, 2):
        if count >= len(lines):
            continue
        anchor = "\n".join(lines[-count:])[-_ANCHOR_CHARS:]
        index = capture.rfind(anchor)
        if index != -1:
            return capture[index + len(anchor) :]
    return None


class OutputTracker:
    """Remembers the previous pane capture to compute what is new."""

    def __init__(self, height: int, max_chars: int = DEFAULT_MAX_OUTPUT_CHARS) -> None:
        self.height = height
        self.max_chars = max_chars
        self._previous: str | None = None

    def new_output(self, capture: str) -> str:
        """New text since the last call; the visible screen when the history cannot be aligned (e.g. clear)."""
        previous, self._previous = self._previous, capture
        if previous is None:
            return truncate_middle(visible_screen(capture, self.height), self.max_chars)
        if capture.startswith(previous):
            fresh = capture[len(previous) :]
        else:
            fresh_or_none = _after_anchor(previous, capture)
            if fresh_or_none is None:
                return "[screen redrawn; current screen]\n" + truncate_middle(
                    visible_screen(capture, self.height), self.max_chars
                )
            fresh = fresh_or_none
        # The line the cursor was on (usually the prompt) gives context to what was typed after it.
        last_line = previous.rsplit("\n", 1)[-1]
        text = last_line + fresh if fresh and not fresh.startswith("\n") else fresh.lstrip("\n")
        return truncate_middle(text, self.max_chars) if text.strip() else "[no new output]"

    def screen(self) -> str:
        return visible_screen(self._previous or "", self.height)
