"""A tmux session inside the task container, driven with one ``exec`` per step.

Completion is detected, not guessed: the shell's PROMPT_COMMAND bumps a sequence file and signals
``tmux wait-for``; a step waits for the next prompt, bounded by the command's requested duration. The pane's
raw output is piped to a log file, which feeds the asciinema recording.
"""

from __future__ import annotations

import secrets
import shlex
from dataclasses import dataclass

from lhtb.agents.terminus.parsing import Command
from lhtb.environments.base import Environment
from lhtb.errors import AgentError, AgentSetupError

SESSION = "lhtb"
STATE_DIR = "/tmp/.lhtb"
CHANNEL = "lhtb-prompt"
HISTORY_LIMIT = 10_000
# Nested bash shells inherit PROMPT_COMMAND; "$$." keeps their counters from colliding with the outer one's.
# The rename makes the update atomic: a reader never sees a truncated, empty file.
_PROMPT_COMMAND = (
    f'__lhtb_n=$((__lhtb_n+1)); echo "$$.$__lhtb_n" > {STATE_DIR}/seq.new; mv -f {STATE_DIR}/seq.new {STATE_DIR}/seq; '
    f"tmux wait-for -S {CHANNEL} 2>/dev/null"
)
_RCFILE = f"""[ -f ~/.bashrc ] && . ~/.bashrc
PS1='\\u@\\h:\\w\\$ '
export PROMPT_COMMAND={shlex.quote(_PROMPT_COMMAND)}
"""
# Waits for the sequence file to change, at most $2 microseconds; sets __last to DONE or WAITED. Needs bash 5.
# Builtins only on the fast path (read, not cat): every fork costs milliseconds on a loaded machine.
_WAIT_FN = f"""__seq() {{ read -r __v < {STATE_DIR}/seq 2>/dev/null || __v=; }}
__w() {{ local before="$1" end now rem
  end=$(( ${{EPOCHREALTIME/./}} + $2 )); __last=DONE
  while __seq; [ "$__v" = "$before" ]; do
    now=${{EPOCHREALTIME/./}}; rem=$(( end - now ))
    [ "$rem" -le 0 ] && {{ __last=WAITED; break; }}
    # Slices of at most 50 ms: a signal lost in a race costs one slice, never the whole duration. A waiter
    # killed by timeout stays registered and would swallow the next signal: flush it at once.
    [ "$rem" -gt 50000 ] && rem=50000
    timeout "0.$(printf '%06d' "$rem")" tmux wait-for {CHANNEL} 2>/dev/null || tmux wait-for -S {CHANNEL} 2>/dev/null
  done; echo "$__last"; }}
"""
# Captures the pane; after a finished command, retries briefly until the prompt is drawn (PROMPT_COMMAND,
# which signalled us, runs just before bash prints PS1).
_CAPTURE = f"""for __i in {{1..40}}; do
  __cap=$(tmux capture-pane -p -J -t {SESSION} -S -); __t="${{__cap%"${{__cap##*[![:space:]]}}"}}"
  {{ [ "$__last" = WAITED ] || [[ "${{__t##*$'\\n'}}" =~ [#$]$ ]]; }} && break; sleep 0.005
done; printf '%s\\n' "$__cap"
"""
_KEY_NAMES = {"Enter", "Escape", "Tab", "BSpace", "Up", "Down", "Left", "Right", "Home", "End", "PageUp"}
_KEY_NAMES |= {"PageDown", "DC", "IC", "Space", "BTab"}


def is_key_name(keystrokes: str) -> bool:
    """tmux key names (C-c, M-x, Escape, F5...) are sent as keys; everything else is typed literally."""
    k = keystrokes.strip()
    if k in _KEY_NAMES:
        return True
    if len(k) in (3, 4) and k[:2] in ("C-", "M-") and k[2:].isprintable():
        return True
    return len(k) in (2, 3) and k[0] == "F" and k[1:].isdigit()


def send_keys_script(keystrokes: str) -> str:
    """Shell lines that type ``keystrokes``: literal text with each newline sent as Enter."""
    if is_key_name(keystrokes):
        return f"tmux send-keys -t {SESSION} {shlex.quote(keystrokes.strip())}"
    lines = []
    for i, segment in enumerate(keystrokes.split("\n")):
        if i > 0:
            lines.append(f"tmux send-keys -t {SESSION} Enter")
        if segment:
            lines.append(f"tmux send-keys -t {SESSION} -l -- {shlex.quote(segment)}")
    return "\n".join(lines)


@dataclass(frozen=True)
class StepResult:
    screen_history: str  # the pane's joined history + visible screen, trailing blanks stripped
    raw_output: str  # bytes the pane printed since the last step (for the recording)
    finished: list[bool]  # per command: True if a new prompt appeared before its duration ran out


class TmuxSession:
    def __init__(self, environment: Environment, *, width: int = 160, height: int = 40) -> None:
        self.environment = environment
        self.width = width
        self.height = height
        self._log_offset = 0
        self._marker = f"--lhtb-{secrets.token_hex(6)}--"

    async def start(self, workdir: str | None = None) -> StepResult:
        """Start the shell in tmux and wait for its first prompt; fails as agent setup if tmux is missing."""
        cwd = f"-c {shlex.quote(workdir)}" if workdir else ""
        script = f"""set -e
command -v tmux >/dev/null || {{ echo 'tmux is not installed in the task image' >&2; exit 127; }}
mkdir -p {STATE_DIR} && : > {STATE_DIR}/pane.log && rm -f {STATE_DIR}/seq
cat > {STATE_DIR}/rc <<'LHTB_RC'
{_RCFILE}LHTB_RC
tmux start-server \\; set-option -g history-limit {HISTORY_LIMIT} \\; \\
  new-session -d -s {SESSION} -x {self.width} -y {self.height} {cwd} "bash --rcfile {STATE_DIR}/rc -i"
tmux pipe-pane -t {SESSION} -o "cat >> {STATE_DIR}/pane.log"
for _ in $(seq 100); do [ -s {STATE_DIR}/seq ] && break; sleep 0.05; done
"""
        result = await self.environment.exec(script, timeout_sec=30)
        if result.exit_code != 0:
            raise AgentSetupError(f"terminus: could not start tmux in the container: {result.stderr.strip()}")
        return await self.step([])

    def _step_script(self, commands: list[Command]) -> str:
        parts = [_WAIT_FN, "__last=WAITED"]  # no command sent: nothing to wait for
        for command in commands:
            parts.append('__seq; __b="$__v"')
            parts.append(send_keys_script(command.keystrokes))
            parts.append(f'__w "$__b" {round(command.duration_sec * 1e6)}')
        log = f"{STATE_DIR}/pane.log"
        parts.append(f"echo {self._marker}")
        parts.append(_CAPTURE)
        parts.append(f"__s=$(stat -c %s {log}); echo {self._marker} $__s")
        parts.append(f"tail -c +{self._log_offset + 1} {log} | head -c $((__s - {self._log_offset}))")
        return "\n".join(parts)

    async def step(self, commands: list[Command]) -> StepResult:
        """Send each command's keys and wait for its prompt (or its duration); then capture, in one exec."""
        budget = sum(c.duration_sec for c in commands) + 30
        result = await self.environment.exec(self._step_script(commands), timeout_sec=budget)
        sections = result.stdout.split(self._marker)
        if len(sections) != 3:
            raise AgentError(f"terminus: tmux step failed (exit {result.exit_code}): {result.stderr.strip()[:500]}")
        status, capture, tail = sections
        size_text, _, raw = tail.partition("\n")
        size_text = size_text.strip()
        if size_text.isdigit():
            self._log_offset = int(size_text)
        finished = [line == "DONE" for line in status.split() if line in ("DONE", "WAITED")]
        return StepResult(screen_history=capture.strip("\n").rstrip(), raw_output=raw, finished=finished)
