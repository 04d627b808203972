"""Mid-game positions and twins of them that differ only in what the mover cannot know."""

from __future__ import annotations

import random

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.engine import State
from ultimata.envs.core.rng import Rng

HIDDEN = [name for name in GAMES if not game_class(name).from_config({}).perfect_information]


def redealt_positions(name: str, count: int) -> list[tuple[State, State]]:
    """Mid-game states, each with a re-deal that differs from it but not in what the mover sees."""
    found = []
    for seed, state in _mid_game_states(name):
        redealt = state.sample_consistent(state.current_player, Rng(seed + 1000))
        redealt.rng = state.rng.__class__.from_state_dict(state.rng.state_dict())
        if redealt.state_dict() != state.state_dict():
            found.append((state, redealt))
        if len(found) == count:
            return found
    raise AssertionError(f"no position of {name} with anything hidden from the mover")


def reseeded_positions(name: str, count: int) -> list[tuple[State, State]]:
    """Mid-game states, each with a twin whose future chance (dice, draws to come) differs."""
    found = []
    for seed, state in _mid_game_states(name):
        twin = state.clone()
        twin.rng = Rng(seed + 5000)
        found.append((state, twin))
        if len(found) == count:
            return found
    raise AssertionError(f"no live position of {name}")


def _mid_game_states(name: str):
    """(seed, state) after a random number of random moves, where the mover has a choice."""
    game = game_class(name).from_config({})
    for seed in range(200):
        state, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        for _ in range(pick.randrange(0, 150)):
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
            if state.is_terminal():
                break
        if not state.is_terminal() and len(state.legal_actions()) >= 2:
            yield seed, state
