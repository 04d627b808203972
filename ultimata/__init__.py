"""The `ultimata` command: bench, train, arena, play, replay."""
