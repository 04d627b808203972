"""Whole games to put in a record: short card games played by random moves, as replays."""

from __future__ import annotations

import random

from ultimata.envs.core.registry import game_class
from ultimata.envs.core.replay import Replay
from ultimata.envs.core.rng import Rng

CARDS = "ultimatum_cards_v3"
RULES = {"num_players": 3}


def played(seed: int, players: list[str], moves: int | None = None, rules: dict | None = None) -> Replay:
    """A card game from `seed` by random legal moves: to its end, or only `moves` of them."""
    rules = RULES if rules is None else rules
    state = game_class(CARDS).from_config(rules).new_initial_state(Rng(seed))
    pick, actions = random.Random(seed), []
    while not state.is_terminal() and (moves is None or len(actions) < moves):
        actions.append(pick.choice(state.legal_actions()))
        state.apply(actions[-1])
    return Replay.of_game(state, seed, actions, players)


def won_by(seat: int, players: list[str], first_seed: int = 0) -> Replay:
    """The first finished game from `first_seed` on that `seat` alone wins."""
    for seed in range(first_seed, first_seed + 500):
        replay = played(seed, players)
        best = max(replay.returns)
        if replay.returns[seat] == best and replay.returns.count(best) == 1:
            return replay
    raise AssertionError(f"no game in 500 seeds is won by seat {seat} alone")


def lost_by(seat: int, players: list[str], first_seed: int = 0) -> Replay:
    for seed in range(first_seed, first_seed + 500):
        replay = played(seed, players)
        if replay.returns[seat] < max(replay.returns):
            return replay
    raise AssertionError(f"no game in 500 seeds is lost by seat {seat}")
