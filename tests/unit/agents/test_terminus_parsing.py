"""Lenient parsing of the model's JSON turn, with corrective feedback when nothing can be recovered."""

from __future__ import annotations

import pytest

from lhtb.agents.terminus.parsing import MAX_DURATION_SEC, Command, TurnParseError, parse_turn
from lhtb.agents.terminus.tmux import is_key_name, send_keys_script


def test_valid_turn() -> None:
    turn = parse_turn(
        '{"analysis": "a", "plan": "p", "commands": [{"keystrokes": "ls\\n", "duration": 0.2}], "task_complete": false}'
    )
    assert turn.commands == [Command("ls\n", 0.2)]
    assert (turn.analysis, turn.plan, turn.task_complete, turn.warnings) == ("a", "p", False, [])


def test_fenced_json_with_prose_and_trailing_comma() -> None:
    text = 'Sure! Here it is:\n```json\n{"analysis": "a", "plan": "p", "commands": [{"keystrokes": "pwd\\n"},],}\n```\n'
    turn = parse_turn(text)
    assert turn.commands == [Command("pwd\n", 1.0)]
    assert any("Extra text" in w for w in turn.warnings)


@pytest.mark.parametrize("text", ["not json at all", '{"analysis": "a", "commands": [', "[1, 2]"])
def test_malformed_reply_gives_feedback(text: str) -> None:
    with pytest.raises(TurnParseError, match="JSON object"):
        parse_turn(text)


def test_missing_commands_is_an_error_unless_complete() -> None:
    with pytest.raises(TurnParseError, match='Missing "commands"'):
        parse_turn('{"analysis": "a", "plan": "p"}')
    turn = parse_turn('{"task_complete": true}')
    assert turn.task_complete and turn.commands == []
    assert 'Missing "analysis" field.' in turn.warnings


def test_bad_command_shapes() -> None:
    with pytest.raises(TurnParseError, match="commands\\[0\\]"):
        parse_turn('{"analysis": "", "plan": "", "commands": [{"duration": 1}]}')
    with pytest.raises(TurnParseError, match="must be a list"):
        parse_turn('{"analysis": "", "plan": "", "commands": "ls"}')
    turn = parse_turn('{"analysis": "", "plan": "", "commands": ["ls\\n", {"keystrokes": "x", "duration": 999}]}')
    assert turn.commands == [Command("ls\n"), Command("x", MAX_DURATION_SEC)]
    assert len(turn.warnings) == 2


def test_task_complete_as_string() -> None:
    assert parse_turn('{"analysis": "", "plan": "", "commands": [], "task_complete": "true"}').task_complete


def test_keystrokes_to_tmux() -> None:
    assert is_key_name("C-c") and is_key_name("Escape") and is_key_name("F5") and not is_key_name("ls")
    assert send_keys_script("C-c") == "tmux send-keys -t lhtb C-c"
    script = send_keys_script("echo 'a b'\nls\n")
    assert script.splitlines() == [
        "tmux send-keys -t lhtb -l -- 'echo '\"'\"'a b'\"'\"''",
        "tmux send-keys -t lhtb Enter",
        "tmux send-keys -t lhtb -l -- ls",
        "tmux send-keys -t lhtb Enter",
    ]
