"""A trial's scorecard and phase history for people (``lhtb trials show``)."""

from __future__ import annotations

from rich.table import Table

from lhtb.metrics.failure_modes import classify
from lhtb.metrics.models import DEFAULT_THRESHOLD
from lhtb.metrics.rows import to_row
from lhtb.results.models import TrialResult
from lhtb.textsafe import plain

SHOWN_THRESHOLD = DEFAULT_THRESHOLD  # a single trial's failure mode is shown at the reports' default threshold


def failure_mode(result: TrialResult, threshold: float = SHOWN_THRESHOLD) -> str:
    return classify(to_row(result, with_curve=False), threshold)


def activity_line(result: TrialResult) -> str | None:
    """When the agent was last seen working, for people; None when activity was not monitored."""
    activity = result.activity
    if activity is None:
        return None
    seen = "never" if activity.last_active_sec is None else f"at {activity.last_active_sec:g} s of agent time"
    return (
        f"{seen} ({activity.samples} CPU readings every {activity.poll_interval_sec:g} s, "
        f"{activity.agent_steps} agent steps)"
    )


def usage_line(result: TrialResult) -> str:
    """Tokens, cost and where the figures come from (measured by lhtb, or self-reported by the agent)."""
    usage = result.usage
    cost = "cost unknown" if usage.cost_usd is None else f"${usage.cost_usd:.4f}"
    line = (
        f"{usage.input_tokens:,} in ({usage.cached_input_tokens:,} cached), {usage.output_tokens:,} out, "
        f"{cost}, {usage.episodes} episodes; source: {usage.source}"
    )
    return line + (f"; refused: {'; '.join(usage.refused)}" if usage.refused else "")


def render_trial(result: TrialResult) -> list[object]:
    reward = "—" if result.reward is None else f"{result.reward:.4f}"
    header = Table.grid(padding=(0, 2))
    # Every value below may be agent-controlled (names, messages, reward.json details): plain Text, never markup.
    header.add_row("trial", plain(result.trial_name))
    header.add_row("task", plain(f"{result.task_name} ({result.category})"))
    header.add_row("agent", plain(result.agent.label))
    header.add_row("reward", reward)
    header.add_row("stop", plain(f"{result.agent_outcome.stop_reason} {result.agent_outcome.message}".strip()))
    if result.error:
        header.add_row("error", plain(f"{result.error.error_class.value}: {result.error.message}"))
    header.add_row(f"mode at {SHOWN_THRESHOLD:g}", failure_mode(result))
    header.add_row("usage", plain(usage_line(result)))
    activity = activity_line(result)
    if activity:
        header.add_row("last seen working", plain(activity))
    timings = result.timings.model_dump()
    header.add_row("timings", ", ".join(f"{k} {v:.2f}s" for k, v in timings.items() if v is not None))
    out: list[object] = [header]
    if result.subtasks:
        card = Table(title="scorecard")
        for column in ("subtask", "kind", "weight", "score", "visibility", "detail"):
            card.add_column(column, justify="right" if column in ("weight", "score") else "left")
        for sub in result.subtasks:
            card.add_row(
                plain(sub.name), sub.kind, f"{sub.weight:g}", f"{sub.score:.3f}", sub.visibility, plain(sub.detail)
            )
        out.append(card)
    if result.steps:
        steps = Table(title="steps")
        for column in ("step", "agent s", "stop reason", "reward", "verification"):
            steps.add_column(column, justify="right" if column in ("agent s", "reward") else "left")
        for step in result.steps:
            verdict = step.verifier
            reward = "—" if verdict is None or verdict.reward is None else f"{verdict.reward:.4f}"
            note = step.skipped or (verdict.error.message if verdict is not None and verdict.error else "")
            stop = "not run" if step.agent_outcome is None else step.agent_outcome.stop_reason
            steps.add_row(plain(step.name), f"{step.agent_sec:.1f}", plain(stop), reward, plain(note))
        out.append(steps)
    if result.phases:
        phases = Table(title="phases")
        for column in ("#", "started", "finished", "stop reason", "reward"):
            phases.add_column(column)
        for phase in result.phases:
            phases.add_row(
                str(phase.index),
                phase.started_at.isoformat(timespec="seconds"),
                phase.finished_at.isoformat(timespec="seconds") if phase.finished_at else "—",
                plain(phase.stop_reason),
                "—" if phase.reward is None else f"{phase.reward:.4f}",
            )
        out.append(phases)
    return out
