"""Human-readable views of result files."""
