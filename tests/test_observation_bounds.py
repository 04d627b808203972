"""Every env declares finite observation bounds where they exist (issue 44), and random play never leaves them.

The card game's upper bound follows its rule config (a Point Play target of 2,000 chips observes 66.7), so
the config that raises it is played too. Conquest's chips and the world's money have no cap but the game's
length: their upper bound stays infinite, their lower bound is 0."""

from __future__ import annotations

import numpy as np
import pytest

import ultimata.envs as envs
from ultimata.envs.core.rng import Rng

PLAYS = [(name, {}, 6) for name in envs.GAMES] + [
    ("ultimatum_cards_v3", {"mode": "point", "target_score": 2000, "max_rounds": 2, "num_players": 3}, 3),
]


@pytest.mark.parametrize(("name", "rules", "games"), PLAYS, ids=lambda x: str(x))
def test_random_play_stays_inside_the_declared_bounds(name, rules, games):
    game = envs.game_class(name).from_config(rules)
    low, high = game.observation_bounds
    assert low == 0.0 and (np.isfinite(high) or name.startswith(("conquest", "ultimatum_world")))
    space = envs.make(name, **rules).observation_space("player_0")["observation"]
    assert (space.low == low).all() and (space.high == high).all()
    rng = np.random.default_rng(0)
    seen = -np.inf
    for g in range(games):
        state = game.new_initial_state(Rng(g))
        for _ in range(300):  # the opening of each game: enough to reach every block, cheap for the long games
            if state.is_terminal():
                break
            for seat in range(game.num_players):
                obs = state.observation(seat)
                assert obs.min() >= low and obs.max() <= high, (name, g, seat, obs.min(), obs.max())
                seen = max(seen, float(obs.max()))
            state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    if rules.get("target_score"):
        assert seen == pytest.approx(high)  # the bound is the target, reached: not a loose guess


def test_the_card_games_bound_follows_the_rules():
    cards = envs.game_class("ultimatum_cards_v3")
    assert cards.from_config({}).observation_bounds == (0.0, 48.0)  # the deck: a hand can hold every card
    longest = cards.from_config({"mode": "match", "match_rounds": 100, "num_players": 6})
    assert longest.observation_bounds == (0.0, 600.0)  # a score: every chip in play, every round
