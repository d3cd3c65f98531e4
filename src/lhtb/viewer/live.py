"""The live view's data: what ``lhtb view --serve`` answers at ``/live/<job>.json`` and
``/live/<job>/<trial page>.json`` while a job runs.

A job's status is read from its trial directories on every request (``live.json`` of a running trial,
``result.json`` of a finished one; lhtb.trial.live writes the first, atomically, every few seconds), so a page
polling it sees phases, agent time, when the agent was last seen working, interim rewards and checkpoints move
without reloading. A trial's answer also carries the output events its terminal recording gained since the
offset the page already has, so a running trial's recording is tailed. Only directories the site was built
from are ever read: the URL names a job and a page by the site's own slugs, never a path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lhtb.jobs.layout import trial_name
from lhtb.results.models import JobConfig, TrialLive, TrialResult
from lhtb.results.scoring import scored_reward
from lhtb.trial.live import LIVE_FILE
from lhtb.viewer.trajectory import CAST_LIMIT

MAX_EVENTS = 2000  # cast events per answer: a page far behind catches up over a few polls


@dataclass
class LiveJob:
    slug: str
    dir: Path
    config: JobConfig
    pages: dict[str, str] = field(default_factory=dict)  # trial page file name -> trial directory name


def _read_model(path: Path, model: type[TrialLive] | type[TrialResult]) -> Any:
    try:
        return model.model_validate_json(path.read_bytes())
    except (OSError, ValidationError, ValueError):
        return None


def trial_status(trial_dir: Path) -> dict[str, Any]:
    """One trial: finished (its scored reward, error) or running (its live.json), else queued."""
    result = _read_model(trial_dir / "result.json", TrialResult)
    if result is not None:
        return {
            "state": "finished",
            "reward": scored_reward(result),
            "error": result.error.error_class.value if result.error else None,
            "agent_sec": result.timings.agent,
        }
    live = _read_model(trial_dir / LIVE_FILE, TrialLive)
    if live is None:
        return {"state": "queued" if not trial_dir.exists() else "starting"}
    return {"state": "running", **live.model_dump(mode="json", by_alias=True, exclude={"schema_"})}


def job_status(job: LiveJob) -> dict[str, Any]:
    """Every planned trial of the job (those not started yet too) with its state, and the counts."""
    trials_dir = job.dir / "trials"
    config = job.config
    names = [
        trial_name(task, agent, attempt)
        for task in config.task_names
        for agent in config.agents
        for attempt in range(1, config.attempts + 1)
    ]
    present = sorted(p.name for p in trials_dir.iterdir() if p.is_dir()) if trials_dir.is_dir() else []
    names += [name for name in present if name not in names]
    pages = {directory: page for page, directory in job.pages.items()}
    trials = {name: {**trial_status(trials_dir / name), "page": pages.get(name)} for name in names}
    finished = sum(1 for t in trials.values() if t["state"] == "finished")
    running = sum(1 for t in trials.values() if t["state"] == "running")
    return {"job": job.config.job_name, "total": len(trials), "finished": finished, "running": running,
            "trials": trials}  # fmt: skip


def cast_events(path: Path, start: int) -> tuple[list[list[Any]], int]:
    """Output and marker events of a recording from event number ``start`` on, and the next offset."""
    events: list[list[Any]] = []
    try:
        with path.open("r", encoding="utf-8", errors="replace") as handle:
            number, size = -1, 0
            for line in handle:
                if not line.endswith("\n"):  # a line still being written
                    break
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(item, list) or len(item) < 3 or item[1] not in ("o", "m"):
                    continue
                number += 1
                if number < start:
                    continue
                if not isinstance(item[0], int | float) or not isinstance(item[2], str):
                    continue
                size += len(item[2])
                if len(events) >= MAX_EVENTS or size > CAST_LIMIT:
                    return events, number
                events.append([float(item[0]), item[1], item[2]])
            return events, number + 1
    except OSError:
        return [], start


def trial_live(job: LiveJob, page: str, cast_from: int) -> dict[str, Any] | None:
    directory = job.pages.get(page)
    if directory is None:
        return None
    trial_dir = job.dir / "trials" / directory
    events, next_from = cast_events(trial_dir / "agent" / "recording.cast", max(0, cast_from))
    return {"trial": directory, **trial_status(trial_dir), "cast": {"events": events, "next": next_from}}
