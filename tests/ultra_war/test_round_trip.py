"""Every state reached in play loads back from its state dict and goes on identically (issue 50): a position
the game reached is never refused, and nothing that matters lives outside the saved dict."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tests.ultra_war.random_play import SCENARIOS, lean
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultra_war.game import UltraWarGame

OPTIONS = (
    {},
    {"power_start": "scenario", "turned_characters_strike": False, "destroyed_source_points": "lost",
     "initiative_mode": "sum", "first_player": "player_1"},
)


def _same(a, b) -> None:
    assert a.legal_actions() == b.legal_actions() and a.current_player == b.current_player
    assert a.returns() == b.returns() and a.is_terminal() == b.is_terminal()
    for seat in (0, 1):
        assert np.array_equal(a.observation(seat), b.observation(seat)), seat


@pytest.mark.parametrize("options", range(len(OPTIONS)))
@pytest.mark.parametrize("army", ["scripted", "draft"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_reached_state_loads_back_and_continues_identically(scenario, army, options):
    """One game a case, random or (odd seed) mostly the scripted bot, which fights: windows, feats, the Void,
    deviations; each scenario gets both kinds across its cases. At every decision the state dict, through
    JSON, loads into a fresh state that offers the same moves, observations and returns, and after the same
    move saves the same dict; one loaded copy plays the rest of the game beside the original and ends the
    same."""
    game = UltraWarGame.from_config({"scenario": scenario, "army": army, **OPTIONS[options]})
    seed = (options + (army == "draft")) % 2
    st = game.new_initial_state(Rng(seed))
    pick, bot = random.Random(seed), Rng(seed)
    twin = None
    while not st.is_terminal():
        loaded = game.new_initial_state(Rng(99))
        loaded.load_state_dict(json.loads(json.dumps(st.state_dict())))
        _same(st, loaded)
        if twin is None and st.decisions >= 40:
            twin = loaded.clone()
        action = lean(st, seed, pick, bot, 0.8)
        st.apply(action)
        loaded.apply(action)
        assert loaded.state_dict() == st.state_dict()
        if twin is not None:
            if twin.decisions < st.decisions:
                twin.apply(action)
            _same(st, twin)
    assert twin is not None and twin.is_terminal() and twin.returns() == st.returns()
