"""Self-play training: the one-seat gymnasium env, opponent pools, MaskablePPO runs, arena, ratings."""
