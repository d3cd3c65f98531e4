"""Task QA: the gates every task in the dataset must pass (``lhtb tasks check``)."""
