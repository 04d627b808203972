"""Loading a saved state (issue 40): a dict that is not a position the rules allow is refused with one
clear error naming the field; a real position loads back exactly."""

import copy
import random

import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.deck import COUNTER
from ultimata.envs.ultimatum_cards.phases import COUNTERS


def saved(**config):
    game = game_class("ultimatum_cards_v2").from_config(config)
    state = game.new_initial_state(Rng(4))
    for _ in range(9):
        state.apply(state.legal_actions()[0])
    return game, state.state_dict()


@pytest.mark.parametrize(("where", "value", "named"), [
    (("history", 0, 0), 8.5, r"history\[0\]\[0\] \(card\) must be a whole number 0..16, got 8.5"),
    (("history", 0, 5), None, r"history\[0\]\[5\] \(chips moved\) must be a whole number"),
    (("history", 0), [12, 0, -1, -1, 0, 0], r"history\[0\] is not a play the rules allow"),
    (("phase",), 0.0, r"phase must be a whole number 0..11, got 0.0"),
    (("queue",), {}, r"queue must be a list"),
    (("chips", 0), True, r"chips\[0\] must be a whole number"),
    (("swap_hands",), 1, r"swap_hands must be true or false"),
    (("actor",), 3, r"left of the last one"),
    (("scores", 0), 5, r"scores add up"),
    (("unexpected",), 1, r"fields missing: none; unknown: \['unexpected'\]"),
])
def test_a_field_of_the_wrong_type_or_an_impossible_value_is_refused_by_name(where, value, named):
    game, d = saved()
    node = d["state"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    with pytest.raises(UltimataError, match=named):
        game.state_from_dict(d)


def test_a_player_asked_to_counter_with_revealing_windows_holds_a_counter():
    game = game_class("ultimatum_cards_v2").from_config({"reaction_windows": "revealing"})
    pick = random.Random(0)
    state = game.new_initial_state(Rng(0))
    while state.phase != COUNTERS:
        state.apply(pick.choice(state.legal_actions()))
    d = state.state_dict()
    assert game.state_from_dict(copy.deepcopy(d)).state_dict() == d, "a real position loads back exactly"
    asked = state.queue[0]
    d["state"]["hands"][asked][COUNTER] = 0
    d["state"]["pile"] += [COUNTER] * state.hands[asked][COUNTER]
    with pytest.raises(UltimataError, match="counter queue"):
        game.state_from_dict(d)
