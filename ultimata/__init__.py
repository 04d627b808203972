"""The `ultimata` command: bench, train, arena, play, replay.

The package root sits above every floor and wires them: the envs hand out the single-agent view, which
training makes (it plays agents, above the envs), as `ultimata.envs.single_agent` and each game's
gymnasium id (ultimata/provided.py)."""

from ultimata.provided import provide

provide("single_agent", "ultimata.training.single_agent:single_agent")
