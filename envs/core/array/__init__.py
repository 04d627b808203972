"""Array engines: a rule variant as one batch-first torch program (Pgx's shape, on torch).

A game's array engine (`envs/<game>/array/`) holds every row's position as tensors with the batch first
and answers whole batches at once: legal mask, step, observation. The Python rules engine stays the
source of truth; each array engine converts positions both ways and is tested move for move against it.
"""

from ultimata.envs.core.array.engine import ArrayGame, ArrayState, array_game_class

__all__ = ["ArrayGame", "ArrayState", "array_game_class"]
