"""Where trials run: the Environment protocol, its Docker implementation, base images and garbage collection."""
