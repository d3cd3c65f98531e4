"""Tasks in the Harbor layout: task.toml models, loading one task, loading a dataset of tasks."""
