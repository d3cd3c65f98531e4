"""Every text the terminal agent sends the model, in one place so behaviour changes are prompt edits."""

from __future__ import annotations

SYSTEM_PROMPT = """You are an AI assistant solving a command-line task in a Linux terminal (a tmux session).
Each turn you receive new terminal output and reply with ONE JSON object, nothing else:
{
  "analysis": "what the output shows and what is still missing",
  "plan": "what you will do next and why",
  "commands": [{"keystrokes": "ls -la\\n", "duration": 0.5}],
  "task_complete": false
}
Rules:
- "keystrokes" are typed verbatim into the terminal; end a command with "\\n" to run it.
  A keystrokes value that is exactly a tmux key name (e.g. "C-c", "C-d", "Escape", "Up") sends that key.
- "duration" is the maximum number of seconds to wait for the command; we return as soon as the shell prompt
  comes back. Use small values (0.1-1) for quick commands and longer ones (up to 60) for builds or tests.
  If a command is still running you can wait with an empty command list, or interrupt it with "C-c".
- Interactive programs: send the answer keystrokes in the next command.
- Set "task_complete" to true only when the task is fully done; you will be asked to confirm once."""

INSTRUCTION = """Task:
{instruction}

Current terminal screen:
{screen}"""

CONFIRM_COMPLETE = """Current terminal state:
{observation}

Are you sure the task is complete? This will end your work and your solution will be graded.
If so, reply again with "task_complete": true. Otherwise continue with more commands."""

PARSE_ERROR = """Your previous reply could not be used: {error}
Nothing was executed. Reply with one JSON object in the required format."""

WARNINGS = "Notes on your previous reply (it was still executed): {warnings}\n\n"

STILL_RUNNING = "\n[The last command was still running when its {duration:.1f} s wait ended.]"

SUMMARY_REQUEST = """The conversation is getting too long for your context window. Summarise the work so far for
yourself: what the task is, what you have done, what you learned (paths, errors, results), what the terminal
currently shows, and what remains to do. Reply in plain text, at most {max_words} words."""

SUMMARY_HANDOFF = """Summary of earlier turns (older messages were removed to fit the context window):
{summary}"""

RESUME = "{message}\n\nCurrent terminal screen:\n{screen}"
