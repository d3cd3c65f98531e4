"""Pydantic models of every file lhtb writes or reads back (one place; everything else imports these)."""

from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    AgentSummary,
    CheckpointRecord,
    ErrorInfo,
    JobConfig,
    JobResult,
    LoopSettings,
    PhaseRecord,
    PhaseTimings,
    RewardFile,
    Subtask,
    TrialResult,
    TrialSpec,
    Usage,
    VerifierOutcome,
)

__all__ = [
    "AgentOutcome",
    "AgentSpec",
    "AgentSummary",
    "CheckpointRecord",
    "ErrorInfo",
    "JobConfig",
    "JobResult",
    "LoopSettings",
    "PhaseRecord",
    "PhaseTimings",
    "RewardFile",
    "Subtask",
    "TrialResult",
    "TrialSpec",
    "Usage",
    "VerifierOutcome",
]
