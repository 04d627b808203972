"""The arena as a Python API: `from ultimata import arena; result = arena.run(game, agents, games=400)`.

`run` plays as `ultimata arena` does (seats rotated, duplicate deals, openskill) and returns an
`ArenaResult` with the figures the CLI prints, `to_dict()` and `to_markdown()`.
"""

from ultimata.training.arena import ArenaResult, EntryResult, run

__all__ = ["ArenaResult", "EntryResult", "run"]
