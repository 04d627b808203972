"""Loading a saved state (issue 40): a dict that is not a position the rules allow is refused with one
clear error naming the field; a real position loads back exactly."""

from __future__ import annotations

import copy
import random

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import phases as P


def saved(decisions: int = 300, **config) -> tuple:
    game = game_class("ultimatum_world_v4").from_config(config)
    state = game.new_initial_state(Rng(2))
    pick = random.Random(2)
    for _ in range(decisions):
        state.apply(pick.choice(state.legal_actions()))
    return game, state.state_dict()


def mutated(d: dict, where: tuple, value) -> dict:
    d = copy.deepcopy(d)
    node = d["state"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    return d


@pytest.mark.parametrize(("where", "value", "named"), [
    (("owner", 27), 1.5, r"owner\[27\] must be a whole number -1..3, got 1.5"),
    (("events", 8), {}, r"events\[8\] must be text"),
    (("revealed", 1, 2, 3), None, r"revealed\[1\]\[2\]\[3\] must be a whole number"),
    (("revealed", 1), {}, r"revealed\[1\] must be a list of 4"),
    (("out", 2), "true", r"out\[2\] must be true or false"),
    (("conquered_nations",), 0.5, r"conquered_nations must be a whole number"),
    (("deck", 7), 11.0, r"deck\[7\] must be a whole number"),
    (("bank", 0), True, r"bank\[0\] must be a whole number"),
    (("debts",), [[0, 0, 3]], r"debts\[0\] is \[debtor, creditor"),
    (("revealed", 0, 0, 0), 2, r"Intelligence shows opponents' cards"),
    (("alliance_flag", 0), [True, True, True, True], r"paid for only while it is held whole"),
    (("round",), 13, r"round is 1..12"),
    (("unexpected",), 1, r"fields missing: none; unknown: \['unexpected'\]"),
])
def test_a_field_of_the_wrong_type_or_an_impossible_value_is_refused_by_name(where, value, named):
    game, d = saved()
    assert game.state_from_dict(copy.deepcopy(d)).state_dict() == d, "the real position loads back exactly"
    with pytest.raises(UltimataError, match=named):
        game.state_from_dict(mutated(d, where, value))


def test_a_player_out_of_the_war_has_no_way_back_and_set_up_picks_add_up():
    game, d = saved()
    out = mutated(d, ("out", 1), True)
    with pytest.raises(UltimataError, match=r"out\[1\]: a player with a way back is in the war"):
        game.state_from_dict(out)
    game, d = saved(decisions=10)
    assert d["state"]["phase"] == P.SETUP_START
    nobody = next(x for x, o in enumerate(d["state"]["owner"]) if o < 0)
    taken = mutated(mutated(d, ("owner", nobody), 0), ("troops", nobody), 5)
    with pytest.raises(UltimataError, match="each pick of the first set-up step takes one nation"):
        game.state_from_dict(taken)
