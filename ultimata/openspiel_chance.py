"""The engines' dice and shuffles as OpenSpiel's explicit chance nodes.

The engines draw inside a move, from the state's `Rng` (`roll`, `below`, `shuffled`: all a game may call).
`ChanceRng` answers those draws from a script of chance outcomes and stops the move with `ChanceNeeded`
at the first draw the script lacks; the bridge then shows a chance node with that draw's outcomes, and once
one is chosen it plays the move again, from the position before it, with the longer script. A position
therefore holds no generator at all: a copy has no hidden future to leak, and two copies that meet the same
chance outcomes play the same game (OpenSpiel's clone and serialisation checks rely on that).

A draw of n outcomes is one node when n <= MAX_OUTCOMES; a larger one is split into blocks (one node picks a
block with probability its size over n, the next a value inside it), so every node has at most MAX_OUTCOMES
outcomes and every value keeps probability 1/n. A shuffle is Fisher-Yates: one draw per card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ultimata.envs.core.rng import Rng

MAX_OUTCOMES = 64


class ChanceNeeded(BaseException):  # noqa: N818 (a signal, not an error; BaseException so no game catches it)
    """Raised by `ChanceRng` at a draw its script does not cover: the outcomes and their probabilities."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        super().__init__(f"a chance node of {len(outcomes)} outcomes")
        self.outcomes = outcomes


class ChanceRng(Rng):
    """Draws answered from `script` (chance outcomes in order); past its end, `ChanceNeeded`."""

    def __init__(self, script: Sequence[int] = ()) -> None:  # no generator: there is nothing to seed
        self.script = list(script)
        self._used = 0

    def _next(self, outcomes: list[tuple[int, float]]) -> int:
        if self._used == len(self.script):
            raise ChanceNeeded(outcomes)
        value = self.script[self._used]
        self._used += 1
        return value

    def below(self, n: int) -> int:
        low, size = 0, int(n)
        while size > MAX_OUTCOMES:
            block = -(-size // MAX_OUTCOMES)
            sizes = [min(block, size - start) for start in range(0, size, block)]
            pick = self._next([(k, s / size) for k, s in enumerate(sizes)])
            low, size = low + pick * block, sizes[pick]
        return low + (self._next([(k, 1.0 / size) for k in range(size)]) if size > 1 else 0)

    def roll(self, sides: int) -> int:
        return 1 + self.below(sides)

    def shuffled(self, items: Sequence[Any]) -> list[Any]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def copy(self) -> ChanceRng:
        """A copy of a position draws from its own chance nodes, never from this script."""
        return ChanceRng()

    def state_dict(self) -> dict[str, Any]:
        raise NotImplementedError("a position behind OpenSpiel's chance nodes has no generator to save")
