"""Scripted bots, one module per game (by base name), each with `choose_action(state, rng) -> int`."""
