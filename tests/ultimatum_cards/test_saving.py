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
    game = game_class("ultimatum_cards_v3").from_config(config)
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
    game = game_class("ultimatum_cards_v3").from_config({"reaction_windows": "revealing"})
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



LONG_GAMES = [
    {"num_players": 3},
    {"num_players": 3, "reaction_windows": "revealing"},
    {"num_players": 4, "reaction_windows": "revealing", "blockers": "any", "give_to_self": True,
     "last_card_ends_round": True},
    {"num_players": 5, "blockers": "any", "target_blocks_own_counter": False, "chips_carry_over": True,
     "draw_count": 3},
    {"num_players": 6, "reaction_windows": "revealing", "give_to_self": True, "hand_size": 5},
]
"""Match play at every player count, each rule option both ways, both kinds of reaction window."""
AHEAD = 30
"""A copy loaded every AHEAD decisions plays the next AHEAD and must reach the same position."""


@pytest.mark.parametrize("config", LONG_GAMES, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_every_position_of_long_match_games_loads_back_and_plays_on_identically(config: dict) -> None:
    """Issue 50: a 3-player match position was refused as 'the player to play is left of the last one'
    while the first play of a later round was in progress (the newest remembered play was the last
    round's). Every position of a match game (random or scripted play) must load back, and a copy loaded
    plays on as the original did."""
    from ultimata.envs.ultimatum_cards.scripted import choose_action

    game = game_class("ultimatum_cards_v3").from_config({"mode": "match", **config})
    scripted = LONG_GAMES.index(config) % 2
    state, pick = game.new_initial_state(Rng(11)), random.Random(11)
    actions, saved, first_plays_of_later_rounds = [], [], 0
    while True:
        saved.append(state.state_dict())
        loaded = game.state_from_dict(copy.deepcopy(saved[-1]))
        assert loaded.state_dict() == saved[-1]
        in_progress = 1 + max(0, len(state.proposals) - 1)
        first_play = state.card >= 0 and sum(state.discards) == in_progress
        first_plays_of_later_rounds += state.rounds_played > 0 and first_play
        if len(actions) % AHEAD == 0 and len(actions) >= AHEAD:
            start = len(actions) - AHEAD
            other = game.state_from_dict(copy.deepcopy(saved[start]))
            for action in actions[start:]:
                other.apply(action)
            assert other.state_dict() == saved[-1], f"the copy loaded at decision {start} played on otherwise"
        if state.is_terminal():
            break
        action = choose_action(state, Rng(len(actions))) if scripted else pick.choice(state.legal_actions())
        actions.append(action)
        state.apply(action)
    assert first_plays_of_later_rounds, "the game reaches the first play of a later round, still in progress"
