"""Anything that picks an action: random, scripted per game, checkpoint-backed policy, human."""
