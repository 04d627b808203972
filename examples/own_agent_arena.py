"""Enter your own rule-based agent in the arena, straight from this file.

    python examples/own_agent_arena.py                 # 200 games against the scripted bot
    ultimata arena ultimatum_cards_v3 examples/own_agent_arena.py:LowestFirst:greed=0.9 heuristic

Any class or factory keeping the agent protocol works: `reset(seat, seed)` at the start of a game and
`act(observation, action_mask, state=None) -> int` for each decision (docs/api.md#agents). Options after
the name (`:greed=0.9`) are passed to the constructor; so are `seed`, `game` and `config` if it asks.
"""

from __future__ import annotations

import argparse

import numpy as np

import ultimata.envs as envs
from ultimata import arena


class LowestFirst:
    """Plays the lowest-numbered legal action with probability `greed`, else a random legal one."""

    def __init__(self, greed: float = 0.8, seed: int | None = None) -> None:
        self.greed = greed
        self.rng = np.random.default_rng(seed)

    def reset(self, seat: int, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state=None) -> int:
        legal = np.flatnonzero(action_mask)
        return int(legal[0] if self.rng.random() < self.greed else self.rng.choice(legal))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimatum_cards", help="a game's name without its version")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--tiny", action="store_true", help="a few games only (what CI runs)")
    args = parser.parse_args()
    game = envs.env_name(args.game)
    mine = f"{__file__}:LowestFirst:greed=0.9"  # the same spec the CLI takes
    result = arena.run(game, [mine, "heuristic"], games=4 if args.tiny else args.games, seed=0)
    print(result.to_markdown())


if __name__ == "__main__":
    main()
