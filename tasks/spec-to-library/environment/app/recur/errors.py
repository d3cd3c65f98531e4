# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
class RuleError(ValueError):
    """A rule, start or count that does not follow the spec."""
