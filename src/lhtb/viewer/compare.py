"""``compare.html``: two agents (or two jobs) side by side, per task and per subtask, with the difference.

The question after every leaderboard is where two agents differ. The page embeds one record per scored trial
(job, agent, task, scored reward, subtask scores) as JSON; ``static/compare.js`` groups them by the two sides
picked, so it works from ``file://`` with no server. Rewards are the report's scored rewards (infrastructure
errors excluded, verifier errors 0), so the page's means agree with the leaderboard's.
"""

from __future__ import annotations

from collections.abc import Sequence

from lhtb.results.scoring import scored_reward
from lhtb.viewer.markup import json_for_script, page, section
from lhtb.viewer.pages import JobEntry


def compare_records(jobs: Sequence[JobEntry]) -> list[dict[str, object]]:
    records: list[dict[str, object]] = []
    for job in jobs:
        for trial in job.trials:
            result = trial.result
            if result is None:
                continue
            reward = scored_reward(result)
            if reward is None:
                continue
            records.append(
                {
                    "job": job.config.job_name,
                    "agent": result.agent.label,
                    "task": result.task_name,
                    "attempt": result.attempt,
                    "reward": reward,
                    "subtasks": {s.name: s.score for s in result.subtasks},
                    "page": f"jobs/{job.slug}/trials/{trial.page}",
                }
            )
    return records


def render_compare(jobs: Sequence[JobEntry]) -> str:
    records = compare_records(jobs)
    controls = (
        '<p class="controls"><label>compare by <select id="compare-by">'
        '<option value="agent">agent</option><option value="job">job</option>'
        '<option value="both">agent in a job</option></select></label> '
        '<label>A <select id="compare-a"></select></label> '
        '<label>B <select id="compare-b"></select></label></p>'
        '<p class="muted" id="compare-summary"></p>'
    )
    body = [
        "<h1>Compare</h1>",
        controls,
        section(
            "Per task",
            '<p class="muted">Mean scored reward over attempts (n = scored attempts); Δ = B − A; '
            "sorted by the size of the difference. Tasks only one side ran show a dash.</p>"
            '<table id="compare-tasks"><thead></thead><tbody></tbody></table>',
            anchor="per-task",
        ),
        section(
            "Per subtask",
            '<p class="muted">Mean subtask score over each side\'s attempts of the task.</p>'
            '<table id="compare-subtasks"><thead></thead><tbody></tbody></table>',
            anchor="per-subtask",
        ),
        "<noscript><p>The comparison needs JavaScript.</p></noscript>",
        f'<script type="application/json" id="compare-data">{json_for_script(records)}</script>',
    ]
    return page(
        "compare · lhtb view",
        "\n".join(body),
        root="",
        crumbs=[("jobs", "index.html"), ("compare", None)],
        scripts=("compare.js",),
    )
