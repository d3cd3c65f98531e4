"""One trial: a task, an agent and an attempt, from image build to the final result file."""
