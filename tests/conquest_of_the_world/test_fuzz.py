"""Random games in short variants: after every move the state is consistent (one holder per country,
chips in hundreds, records non-negative); masks are exact, illegal moves change nothing, saved states
load and play on identically."""

import random

import numpy as np
import pytest

from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.core.errors import IllegalActionError
from ultimata.envs.core.rng import Rng

SHORT = [{"num_players": n, "max_turns": 6, "war_energy": 800} for n in (2, 3, 4, 5, 6)] + [
    {"num_players": 3, "max_turns": 8, "target_record": 14}]


@pytest.mark.parametrize("config", SHORT, ids=lambda c: f"{c['num_players']}p-{len(c)}")
def test_thousands_of_random_decisions_keep_the_invariants(config):
    game = ConquestGame.from_config(config)
    pick = random.Random(config["num_players"])
    for seed in range(200):  # 6 variants x 200: 1200 games
        s = game.new_initial_state(Rng(seed))
        while not s.is_terminal():
            s._check_consistency()
            held = [q for q in s.holder if q >= 0]
            assert all(s.alive[q] for q in held)
            legal = s.legal_actions()
            assert legal and all(np.flatnonzero(s.legal_action_mask()) == legal)
            s.apply(legal[pick.randrange(len(legal))])
        s._check_consistency()
        assert abs(sum(s.returns())) < 1e-9


def test_every_masked_action_applies_and_others_are_refused_unchanged():
    game = ConquestGame.from_config({"num_players": 4, "max_turns": 8})
    pick = random.Random(1)
    for seed in range(6):
        s = game.new_initial_state(Rng(seed))
        while not s.is_terminal():
            legal = s.legal_actions()
            if pick.random() < 0.3:
                for a in legal:
                    s.clone().apply(a)
                saved = s.state_dict()
                for a in pick.sample([x for x in range(game.num_actions) if x not in legal], 5):
                    with pytest.raises(IllegalActionError):
                        s.apply(a)
                    assert s.state_dict() == saved
            s.apply(legal[pick.randrange(len(legal))])


def test_saved_states_load_and_continue_identically():
    game = ConquestGame.from_config({"num_players": 3, "max_turns": 10})
    pick = random.Random(5)
    for seed in range(5):
        s = game.new_initial_state(Rng(seed))
        while not s.is_terminal():
            if pick.random() < 0.1:
                other = game.state_from_dict(s.state_dict())
                assert other.state_dict() == s.state_dict()
                for seat in range(3):
                    assert (other.observation(seat) == s.observation(seat)).all()
            legal = s.legal_actions()
            s.apply(legal[pick.randrange(len(legal))])


def test_default_random_games_end_well_under_2000_decisions():
    game = ConquestGame.from_config({})
    pick = random.Random(0)
    for seed in range(10):
        s = game.new_initial_state(Rng(seed))
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(legal[pick.randrange(len(legal))])
        assert s.decisions < 1500


@pytest.mark.parametrize(("field", "index", "value", "problem"), [
    ("holder", 0, 1, "holder and kind disagree"),
    ("chips", 0, 150, "whole hundreds"),
    ("homeland", 0, 5, "homeland of no one"),
    ("phase", None, 4, "diplomacy window needs its player"),
    ("allied", 0, [False, True], "mutual"),
])
def test_a_damaged_save_is_refused_naming_the_problem(field, index, value, problem):
    from ultimata.envs.core.errors import UltimataError

    from .position import opening

    s = opening(["United States", "U.S.S.R."])
    saved = s.state_dict()
    if index is None:
        saved["state"][field] = value
    else:
        saved["state"][field][index] = value
    with pytest.raises(UltimataError, match=problem):
        s.load_state_dict(saved)
