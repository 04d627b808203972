"""Random games in every variant: after every move the position is sound (one holder per country, each
homeland with its player, chips in whole hundreds, records equal to holdings during play); masks are
exact (every masked action applies, every other is refused and changes nothing); saved positions load
through JSON and play on identically. ULTIMATA_FUZZ_GAMES=2000 runs thousands of games per variant."""

import copy
import json
import random

import numpy as np
import pytest

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world import phases as P
from ultimata.envs.conquest_of_the_world import terms as T
from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.game import ConquestGame
from ultimata.envs.conquest_of_the_world.observation import LastView
from ultimata.envs.core.errors import IllegalActionError, UltimataError
from ultimata.envs.core.rng import Rng

from .positions import STEADY, TANK, fight, fill_board, opening
from .random_play import VARIANTS, games_per_variant, lean, variant_id

B = board()


def check_invariants(s) -> None:
    s._check_consistency()
    assert all(x >= 0 and x % 100 == 0 for x in s.chips), "chips are whole hundreds, never negative"
    assert all(r >= 0 for r in s.record)
    homes = [c for c in range(B.size) if s.kind[c] == T.HOME]
    assert sorted(homes) == sorted(h for h in s.homeland if h >= 0), "every homeland marker has its player"
    for c in homes:
        assert s.homeland[s.holder[c]] == c
    if s.stage != T.LADDER and not s.is_terminal():
        for p in range(s.n):
            if s.alive[p]:
                held = sum(B.value[c] * (2 if s.kind[c] == T.CONQUEST else 1) for c in range(B.size)
                           if s.holder[c] == p and s.kind[c] != T.HOME)
                assert s.record[p] == held, "during play a record is its holdings"
    assert (np.flatnonzero(s.legal_action_mask()) == s.legal_actions()).all()


@pytest.mark.parametrize("config", VARIANTS, ids=variant_id)
def test_random_games_keep_the_invariants(config):
    game = ConquestGame.from_config(config)
    for seed in range(games_per_variant(4)):
        s, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        while not s.is_terminal():
            check_invariants(s)
            legal = s.legal_actions()
            assert legal
            s.apply(lean(s, legal, pick))
        check_invariants(s)
        assert abs(sum(s.returns())) < 1e-9 and s.decisions < 2000


@pytest.mark.parametrize("config", VARIANTS[2::5], ids=variant_id)
def test_every_observation_equals_one_built_afresh(config):
    """The observation reuses its seldom-changing parts across decisions (observation.LastView); the
    same position with an empty LastView builds every part afresh."""
    game = ConquestGame.from_config(config)
    for seed in range(max(1, games_per_variant(4) // 4)):
        s, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        while not s.is_terminal():
            fresh = copy.copy(s)
            fresh.last_view = LastView()
            for seat in range(s.n):
                assert (s.observation(seat) == fresh.observation(seat)).all()
            s.apply(lean(s, s.legal_actions(), pick))


@pytest.mark.parametrize("config", VARIANTS[1::3], ids=variant_id)
def test_every_masked_action_applies_and_every_other_is_refused_unchanged(config):
    game = ConquestGame.from_config(config)
    for seed in range(max(1, games_per_variant(4) // 4)):
        s, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            if pick.random() < 0.2:
                for a in legal:
                    s.clone().apply(a)
                saved = s.state_dict()
                for a in [x for x in range(game.num_actions) if x not in legal] + [-1, game.num_actions, 2.0]:
                    with pytest.raises(IllegalActionError):
                        s.apply(a)
                assert s.state_dict() == saved
            s.apply(lean(s, legal, pick))


@pytest.mark.parametrize("config", VARIANTS[::4], ids=variant_id)
def test_saved_positions_load_through_json_and_play_on_identically(config):
    game = ConquestGame.from_config(config)
    for seed in range(max(1, games_per_variant(4) // 4)):
        s, pick = game.new_initial_state(Rng(seed)), random.Random(seed)
        actions, copies = [], []
        while not s.is_terminal():
            if pick.random() < 0.05:
                other = game.state_from_dict(json.loads(json.dumps(s.state_dict())))
                assert other.state_dict() == s.state_dict()
                for seat in range(s.n):
                    assert (other.observation(seat) == s.observation(seat)).all()
                copies.append((other, len(actions)))
            actions.append(lean(s, s.legal_actions(), pick))
            s.apply(actions[-1])
        for other, done in copies:
            for a in actions[done:]:
                other.apply(a)
            assert other.state_dict() == s.state_dict()


@pytest.mark.parametrize(("field", "index", "value", "problem"), [
    ("holder", B.index("Brazil"), 1, "holder/kind of Brazil disagree"),
    ("chips", 0, 150, "whole hundreds"),
    ("homeland", 0, 5, "homeland of no one"),
    ("phase", None, P.RESPOND, "diplomacy window needs its player"),
    ("allied", None, [[False, True, False], [True, False, True], [False, True, False]], "group"),
    ("buys", None, -1, "buys"),
    ("answers", None, [2], "proposal/answers: only while one is answered"),
    ("chooser", None, "3", "chooser must be a whole number"),
    ("turn", None, 1.5, "turn must be a whole number"),
    ("option", None, True, "option must be a whole number"),
    ("record", 1, 3, "record: player_1's is not its holdings' value"),
    ("kind", 0, T.CONQUEST, "record: player_0's is not its holdings' value"),  # Canada a conquest, recorded as an ally
    ("zone_paid", 0, [False] * 11, "zone_paid: player_0 holds zone 1 without its bonus"),
    ("chips", 2, 500, None),  # a possible position: player_2 won 500 in chips
])
def test_a_damaged_save_is_refused_naming_the_problem(field, index, value, problem):
    s = opening(["United States", "U.S.S.R.", "China"], [["Canada", "Mexico"], [], []])
    s.allied[1][2] = s.allied[2][1] = True
    saved = s.state_dict()
    if index is None:
        saved["state"][field] = value
    else:
        saved["state"][field][index] = value
    if problem is None:
        s.load_state_dict(saved)
        assert s.state_dict() == saved
        return
    with pytest.raises(UltimataError, match=problem):
        s.load_state_dict(saved)
    assert s.state_dict() != saved


def test_a_save_names_a_missing_or_unknown_field():
    s = opening(["United States", "U.S.S.R."])
    saved = s.state_dict()
    del saved["state"]["buys"]
    saved["state"]["bonus"] = 1
    with pytest.raises(UltimataError, match=r"missing: \['buys'\]; unknown: \['bonus'\]"):
        s.load_state_dict(saved)


def test_a_save_in_the_play_stage_with_the_board_filled_is_refused():
    """Rules 18A and 20: the moment the board is filled the play stage is over (the last round)."""
    s = opening(["United States", "U.S.S.R."])
    fill_board(s, 0)
    saved = s.state_dict()
    saved["state"]["stage"], saved["state"]["final_left"] = T.PLAY, []
    with pytest.raises(UltimataError, match="the play stage ends the moment the board is filled"):
        s.load_state_dict(saved)


def test_a_war_whose_barred_weapons_are_not_its_lost_battles_is_refused():
    s = opening(["United States", "U.S.S.R."])
    s.apply(A.ATTACK + B.index("Brazil"))
    fight(s, [99, 0, 99], (TANK, STEADY), (TANK, STEADY))  # the defender loses its tank
    saved = s.state_dict()
    assert saved["state"]["barred"] == [0, 1] and saved["state"]["wins"] == [1, 0]
    saved["state"]["barred"] = [0, 0]
    with pytest.raises(UltimataError, match="barred: a side's barred weapons are the battles it did not win"):
        s.load_state_dict(saved)
