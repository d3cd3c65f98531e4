"""Load job directories into trial rows; an unreadable result file is an error that names its path.

Each ``result.json`` is parsed straight into a row by :mod:`lhtb.report.rows_fast`, which validates the fields
metrics read (types, schema id, error class, rewards finite in [0, 1]) but does not build the full
``TrialResult`` (``full_validation=True`` does: the load then costs ~1.7x the CPU). Large jobs are split over
worker processes; the rows are small to send back.
"""

from __future__ import annotations

import gc
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lhtb.errors import ConfigError
from lhtb.harbor.results_import import is_harbor_job
from lhtb.metrics.rows import TrialRow, job_flags, to_row
from lhtb.report.models import JobInfo
from lhtb.report.rows_fast import row_from_json
from lhtb.results.models import JobConfig, TrialResult

PARALLEL_MIN_FILES = 4000  # below this, starting processes costs more than it saves
_CHUNK = 2000
_SHOWN_PROBLEMS = 20
_READ_SIZE = 1 << 16  # one read() for a typical result file (~4 KB); larger files take more reads


class UnreadableResultsError(ConfigError):
    """One or more result files could not be read or validated; the message lists them."""


@dataclass
class LoadedJobs:
    jobs: list[JobInfo] = field(default_factory=list)
    rows: list[TrialRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "path: reason"


def _read_config(job_dir: Path) -> JobConfig:
    """The job config is required: without it a non-default timeout could not be flagged."""
    path = job_dir / "config.json"
    if not path.is_file():
        raise ConfigError(f"{path}: not a job directory (config.json is missing)")
    try:
        return JobConfig.model_validate_json(path.read_bytes())
    except (ValidationError, ValueError) as exc:
        raise ConfigError(f"{path}: invalid job config: {exc}") from exc


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        errors = exc.errors()
        first = errors[0]
        where = ".".join(str(part) for part in first["loc"]) or "file"
        more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
        return f"invalid trial result: {where}: {first['msg']}{more}"
    return f"{type(exc).__name__}: {exc}"


def _read(path: str) -> bytes:
    """The file's bytes: os.open/os.read/os.close, half the cost of ``open().read()`` for small files."""
    fd = os.open(path, os.O_RDONLY)
    try:
        data = os.read(fd, _READ_SIZE)
        if len(data) == _READ_SIZE:
            parts = [data]
            while chunk := os.read(fd, _READ_SIZE):
                parts.append(chunk)
            data = b"".join(parts)
    finally:
        os.close(fd)
    return data


def load_results(
    trial_dirs: list[str], flags: tuple[str, ...], curves: bool = True, full_validation: bool = False
) -> tuple[list[TrialRow], list[str], int]:
    """Parse and project each trial's result.json: (rows, "path: reason" problems, trials with no result yet).

    A missing file is an unfinished trial; a file that cannot be read or validated is a problem, never dropped.
    ``full_validation`` validates the whole ``TrialResult`` (every subtask, timestamp, verifier outcome) first.
    """
    rows: list[TrialRow] = []
    problems: list[str] = []
    unfinished = 0
    # Nothing loaded here forms reference cycles: pausing the cyclic GC saves its repeated scans of the
    # growing row list (~10 % of the load at 100,000 rows).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for trial_dir in trial_dirs:
            path = f"{trial_dir}{os.sep}result.json"
            try:
                data = _read(path)
            except FileNotFoundError:
                unfinished += 1
                continue
            except OSError as exc:
                problems.append(f"{path}: {_reason(exc)}")
                continue
            try:
                if full_validation:
                    rows.append(to_row(TrialResult.model_validate_json(data), flags, with_curve=curves))
                else:
                    rows.append(row_from_json(data, flags, with_curve=curves))
            except ValidationError as exc:
                problems.append(f"{path}: {_reason(exc)}")
    finally:
        if gc_was_enabled:
            gc.enable()
    return rows, problems, unfinished


def _load_all(
    trial_dirs: list[str], flags: tuple[str, ...], workers: int, curves: bool, full_validation: bool
) -> tuple[list[TrialRow], list[str], int]:
    if workers <= 1 or len(trial_dirs) < PARALLEL_MIN_FILES:
        return load_results(trial_dirs, flags, curves, full_validation)
    chunks = [trial_dirs[i : i + _CHUNK] for i in range(0, len(trial_dirs), _CHUNK)]
    rows: list[TrialRow] = []
    problems: list[str] = []
    unfinished = 0
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for chunk_rows, chunk_problems, chunk_unfinished in pool.map(
            _load_plain, chunks, [flags] * len(chunks), [curves] * len(chunks), [full_validation] * len(chunks)
        ):
            rows.extend(TrialRow(*row) for row in chunk_rows)
            problems.extend(chunk_problems)
            unfinished += chunk_unfinished
    return rows, problems, unfinished


def _load_plain(
    trial_dirs: list[str], flags: tuple[str, ...], curves: bool, full_validation: bool
) -> tuple[list[tuple[Any, ...]], list[str], int]:
    """``load_results`` for a worker: plain tuples unpickle several times faster than NamedTuples."""
    rows, problems, unfinished = load_results(trial_dirs, flags, curves, full_validation)
    return [tuple(row) for row in rows], problems, unfinished


def _trial_dirs(trials_dir: Path) -> list[str]:
    """Sorted trial directories; one os.scandir, no stat per entry (it matters at 100,000 trials)."""
    if not trials_dir.is_dir():
        return []
    with os.scandir(trials_dir) as entries:
        return sorted(entry.path for entry in entries if entry.is_dir())


def _load_harbor(job_dir: Path, loaded: LoadedJobs, curves: bool) -> JobInfo:
    """A Harbor job's trials as rows (lhtb.harbor.results_import says how each field maps)."""
    from lhtb.harbor.results_import import lhtb_job_config, load_harbor_job

    try:
        harbor_config, results, problems, unfinished = load_harbor_job(job_dir)
    except (ValidationError, ValueError) as exc:
        raise ConfigError(f"{job_dir / 'config.json'}: invalid Harbor job config: {exc}") from exc
    config = lhtb_job_config(harbor_config, results, job_dir)
    flags = job_flags(config)
    rows = [to_row(result, flags, with_curve=curves) for result in results]
    loaded.rows.extend(rows)
    loaded.problems.extend(problems)
    return JobInfo(
        job_name=config.job_name,
        path=str(job_dir),
        created_at=config.created_at,
        agent_timeout_multiplier=config.agent_timeout_multiplier,
        n_results=len(rows),
        n_unfinished=unfinished,
        flags=[*flags, "harbor"],
    )


def load_jobs(
    job_dirs: list[Path],
    *,
    skip_unreadable: bool = False,
    workers: int | None = None,
    curves: bool = True,
    full_validation: bool = False,
) -> LoadedJobs:
    """Rows of every finished trial in ``job_dirs`` (each directory once); raise on unreadable results.

    ``curves=False`` skips projecting reward curves (only figures draw them). ``full_validation=True``
    validates every result as a whole ``TrialResult``, not only the fields the report reads (~1.7x the CPU).
    """
    loaded = LoadedJobs()
    workers = workers if workers is not None else (os.cpu_count() or 1)
    seen: set[Path] = set()
    for job_dir in job_dirs:
        resolved = job_dir.resolve()
        if resolved in seen:
            continue
        seen.add(resolved)
        if is_harbor_job(job_dir):
            loaded.jobs.append(_load_harbor(job_dir, loaded, curves))
            continue
        config = _read_config(job_dir)
        flags = job_flags(config)
        rows, problems, unfinished = _load_all(_trial_dirs(job_dir / "trials"), flags, workers, curves, full_validation)
        loaded.rows.extend(rows)
        loaded.problems.extend(problems)
        loaded.jobs.append(
            JobInfo(
                job_name=config.job_name,
                path=str(job_dir),
                created_at=config.created_at,
                agent_timeout_multiplier=config.agent_timeout_multiplier,
                n_results=len(rows),
                n_unfinished=unfinished,
                flags=list(flags),
            )
        )
    if loaded.problems and not skip_unreadable:
        shown = "\n  ".join(loaded.problems[:_SHOWN_PROBLEMS])
        more = len(loaded.problems) - _SHOWN_PROBLEMS
        raise UnreadableResultsError(
            f"{len(loaded.problems)} result file(s) could not be read:\n  {shown}"
            + (f"\n  ... and {more} more" if more > 0 else "")
            + "\nFix or remove them, or pass --skip-unreadable to report without them (they are listed)."
        )
    return loaded
