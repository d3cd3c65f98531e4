from datetime import UTC, datetime

import pytest

from lhtb.errors import ErrorClass
from lhtb.jobs.summary import render_leaderboard, summarise
from lhtb.results.models import AgentSpec, ErrorInfo, TrialResult
from lhtb.results.scoring import scored_reward


def _result(agent: str, reward: float | None, error: ErrorClass | None = None, n: int = 1) -> TrialResult:
    now = datetime.now(UTC)
    return TrialResult(
        trial_name=f"t{n}",
        job_name="j",
        task_name="task",
        agent=AgentSpec(name=agent),
        attempt=n,
        started_at=now,
        finished_at=now,
        reward=reward,
        error=None if error is None else ErrorInfo(error_class=error, message="m"),
    )


@pytest.mark.parametrize(
    ("reward", "error", "expected"),
    [
        (0.7, None, 0.7),
        (0.4, ErrorClass.AGENT_ERROR, 0.4),  # graded: the agent crashed but its work counts
        (None, ErrorClass.VERIFIER_ERROR, 0.0),  # never a pass, never excluded
        (None, ErrorClass.VERIFIER_TIMEOUT, 0.0),
        (None, ErrorClass.ENVIRONMENT_BUILD, None),  # infrastructure: excluded, reported
        (None, ErrorClass.HARNESS_ERROR, None),
    ],
)
def test_scored_reward_rule(reward: float | None, error: ErrorClass | None, expected: float | None) -> None:
    assert scored_reward(_result("a", reward, error)) == expected


def test_summary_counts_and_rates() -> None:
    results = [
        _result("good", 1.0, n=1),
        _result("good", 0.96, n=2),
        _result("good", None, ErrorClass.ENVIRONMENT_START, n=3),
        _result("bad", 0.0, n=1),
        _result("bad", None, ErrorClass.VERIFIER_ERROR, n=2),
    ]
    summaries, errors = summarise(results)
    assert [s.agent for s in summaries] == ["good", "bad"]
    good, bad = summaries
    assert (good.n_trials, good.n_scored, good.n_excluded) == (3, 2, 1)
    assert good.mean_reward == pytest.approx(0.98)
    assert good.pass_rate_095 == 1.0 and good.pass_rate_100 == 0.5
    assert (bad.n_scored, bad.mean_reward, bad.pass_rate_095) == (2, 0.0, 0.0)
    assert errors == {"environment_start": 1, "verifier_error": 1}


def test_leaderboard_columns_name_the_thresholds() -> None:
    from rich.table import Table

    (table,) = render_leaderboard(*summarise([_result("a", 1.0)]), title="t")
    assert isinstance(table, Table)
    headers = [str(column.header) for column in table.columns]
    assert headers[-2:] == ["pass ≥0.95", "pass =1.0"]


def test_subtask_means_across_attempts() -> None:
    from lhtb.jobs.summary import subtask_means
    from lhtb.results.models import Subtask

    first, second = _result("a", 0.5, n=1), _result("a", 1.0, n=2)
    assert first.verifier is not None and second.verifier is not None
    first.verifier.subtasks = [Subtask(name="x", weight=1, score=0.0), Subtask(name="y", weight=1, score=1.0)]
    second.verifier.subtasks = [Subtask(name="x", weight=1, score=1.0), Subtask(name="y", weight=1, score=1.0)]
    assert subtask_means([first, second]) == {("task", "a"): {"x": (0.5, 2), "y": (1.0, 2)}}


def _printed(renderables: list[object], width: int) -> list[str]:
    import io

    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False)
    for renderable in renderables:
        console.print(renderable)
    return buffer.getvalue().splitlines()


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_leaderboard_reads_in_a_narrow_terminal(width: int) -> None:
    from rich.cells import cell_len

    long_name = "terminus-2:openai/qwen2.5-coder-1.5b-instruct-q4_k_m@local-llama-server"
    results = [_result(long_name, 0.4), _result("oracle", 1.0), _result("[red]nop[/red]", 0.0)]
    results.append(_result("oracle", None, ErrorClass.ENVIRONMENT_BUILD, n=2))
    board = render_leaderboard(*summarise(results), title="leaderboard — a-long-job-name", width=width)
    lines = _printed(board, width)
    assert max(cell_len(line) for line in lines) <= width
    text = "\n".join(lines)
    assert "[red]nop[/red]" in text  # agent-controlled: shown as text, never as markup
    assert "oracle" in text and "terminus-2" in text
    short_rows = [line for line in lines if "terminus-2" in line and "│" in line]
    assert short_rows and all("…" in row or long_name in row for row in short_rows)  # one line, never wrapped
    assert long_name in text.replace("\n", "")  # written out in full under the table
    for header in ("trials", "scored", "excluded"):
        assert header in text  # a header wraps between words, never inside one


def test_infrastructure_errors_say_their_one_line_cause() -> None:
    from lhtb.jobs.summary import infrastructure_errors

    def failed(n: int, error: ErrorClass, message: str) -> TrialResult:
        result = _result("a", None, error, n=n)
        assert result.error is not None
        result.error.message = message
        return result

    build = "Traceback (most recent call last):\n  File x\nE: Unable to locate package foo\nmore detail"
    results = [failed(n, ErrorClass.ENVIRONMENT_BUILD, build) for n in range(1, 6)]
    results += [failed(9, ErrorClass.HARNESS_ERROR, "node lost: raylet gone"), _result("a", 0.5, n=10)]
    results.append(failed(11, ErrorClass.VERIFIER_ERROR, "graded, not infrastructure"))
    assert infrastructure_errors(results) == [
        "environment_build ×5: E: Unable to locate package foo (t1, t2, t3 and 2 more)",
        "harness_error ×1: node lost: raylet gone (t9)",
    ]
