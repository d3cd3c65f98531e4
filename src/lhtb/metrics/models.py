"""Pydantic models of computed metrics; they are what ``lhtb report --format json`` writes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from lhtb.metrics.bootstrap import DEFAULT_CONFIDENCE, DEFAULT_RESAMPLES, DEFAULT_SEED
from lhtb.results.scoring import FULL_PASS_THRESHOLD, PASS_THRESHOLD

DEFAULT_THRESHOLDS = (0.9, PASS_THRESHOLD, FULL_PASS_THRESHOLD)
DEFAULT_THRESHOLD = PASS_THRESHOLD


def threshold_key(threshold: float) -> str:
    return f"{threshold:g}"


class MetricSettings(BaseModel):
    """Everything a number in the report depends on besides the result files; printed with the report."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    threshold: float = DEFAULT_THRESHOLD  # the pass threshold for solve rate, pass@k, failure modes, cost/solved
    thresholds: tuple[float, ...] = DEFAULT_THRESHOLDS  # pass@1 is reported at each
    ks: tuple[int, ...] = (1,)
    seed: int = DEFAULT_SEED
    resamples: int = Field(default=DEFAULT_RESAMPLES, ge=100)
    confidence: float = Field(default=DEFAULT_CONFIDENCE, gt=0, lt=1)
    include_flagged: bool = False

    @field_validator("threshold")
    @classmethod
    def _in_unit_interval(cls, value: float) -> float:
        if not 0.0 < value <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {value}")
        return value

    @field_validator("thresholds")
    @classmethod
    def _sorted_unique(cls, value: tuple[float, ...]) -> tuple[float, ...]:
        if any(not 0.0 < t <= 1.0 for t in value):
            raise ValueError(f"thresholds must be in (0, 1], got {value}")
        return tuple(sorted(set(value)))

    @field_validator("ks")
    @classmethod
    def _positive_ks(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if any(k < 1 for k in value):
            raise ValueError(f"k must be >= 1, got {value}")
        return tuple(sorted(set(value)))


class GroupMetrics(BaseModel):
    """Metrics of one agent (label + flags), over all tasks (category "all") or over one category."""

    model_config = ConfigDict(extra="forbid")

    agent: str
    category: str = "all"
    flags: list[str] = Field(default_factory=list)
    n_trials: int
    n_scored: int
    n_excluded: int
    n_tasks: int
    errors_by_class: dict[str, int]
    mean_reward: float | None
    ci_low: float | None
    ci_high: float | None
    pass_rates: dict[str, float | None]  # pass@1 by threshold key ("0.95")
    pass_at_k: dict[str, float | None]  # by k ("1", "5") at the main threshold
    pass_at_k_tasks: dict[str, int]  # tasks with >= k scored attempts, i.e. that entered the pass@k mean
    n_solved: int
    near_misses: int
    mean_input_tokens: float | None
    mean_cached_input_tokens: float | None
    mean_output_tokens: float | None
    mean_episodes: float | None
    mean_agent_minutes: float | None
    cost_per_task: float | None  # None when no scored trial, or when any scored trial's price is unknown
    cost_unknown_trials: int
    cost_per_solved: float | None
    failure_modes: dict[str, int]
    # Scored trials by Usage.source ("measured", "self-reported", "mixed", "unknown", "none"): who counted the
    # tokens and cost above. Anything but measured/none came (partly) from the agent's own output.
    usage_sources: dict[str, int] = Field(default_factory=dict)
    rank_by_mean: float | None = None
    rank_by_solve_rate: float | None = None

    @property
    def display_name(self) -> str:
        return self.agent if not self.flags else f"{self.agent} [{', '.join(self.flags)}]"

    @property
    def unmeasured_usage(self) -> int:
        """Scored trials whose usage figures are not (only) lhtb's own measurement."""
        return sum(n for source, n in self.usage_sources.items() if source not in ("measured", "none"))

    @property
    def solve_rate(self) -> float | None:
        return self.n_solved / self.n_scored if self.n_scored else None
