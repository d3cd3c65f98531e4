"""Jobs: tasks × agents × attempts, scheduled concurrently, resumable, summarised."""
