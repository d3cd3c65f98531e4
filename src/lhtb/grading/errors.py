"""The one exception the grading SDK raises for task-author mistakes."""


class GradingError(ValueError):
    """A verifier script misuses the SDK (bad weight, duplicate name, bad bands...); fix the script.

    Raised immediately, never caught by the SDK, so the script crashes and writes no ``reward.json``.
    """
