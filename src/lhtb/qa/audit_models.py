"""The files ``lhtb tasks audit`` writes: one cell per task × verifier mode × exploit."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from lhtb.results.models import VerifierMode


class AuditCell(BaseModel):
    model_config = ConfigDict(extra="forbid")

    task: str
    mode: VerifierMode
    exploit: str
    number: int  # the exploit class (docs/integrity.md)
    reward: float | None = None  # final reward as metrics count it (verifier errors 0; None: excluded trial)
    best_reward: float | None = None  # highest of final, interim and checkpoint rewards
    nop_reward: float | None = None
    phases: int = 0
    error: str | None = None
    findings: list[str] = Field(default_factory=list)
    trial_dir: str = ""

    @property
    def succeeded(self) -> bool:
        """The exploit scored above nop at any verification of the trial."""
        return self.best_reward is not None and self.nop_reward is not None and self.best_reward > self.nop_reward

    @property
    def passed(self) -> bool:
        return not self.succeeded and not self.findings and self.nop_reward is not None


class AuditReport(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_: Literal["lhtb.audit/1"] = Field(default="lhtb.audit/1", alias="schema")
    created_at: datetime
    lhtb_version: str
    budget_sec: float
    checkpoint_interval_sec: float | None = None
    feedback_pause_sec: float | None = None  # the jobs' interim feedback pause (docs/integrity.md)
    duration_sec: float = 0.0
    jobs_dir: str = ""
    cells: list[AuditCell] = Field(default_factory=list)

    @property
    def passed(self) -> bool:
        return bool(self.cells) and all(cell.passed for cell in self.cells)
