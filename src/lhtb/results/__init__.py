"""Pydantic models of every file lhtb writes or reads back (one place; everything else imports these)."""

from lhtb.results.models import (
    AgentOutcome,
    AgentSpec,
    AgentSummary,
    CheckpointRecord,
    ErrorInfo,
    JobConfig,
    JobResult,
    PhaseRecord,
    PhaseTimings,
    RewardFile,
    Subtask,
    TrialConfig,
    TrialResult,
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
    "PhaseRecord",
    "PhaseTimings",
    "RewardFile",
    "Subtask",
    "TrialConfig",
    "TrialResult",
    "Usage",
    "VerifierOutcome",
]
