"""The card game's scripted bot: legal always, and it does what its docstring promises."""

from __future__ import annotations

import random

from tests.ultimatum_cards.positions import do, position
from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.scripted import choose_action


def bot_move(state) -> str:
    return state.action_to_string(choose_action(state, Rng(0)))


def test_always_legal_over_many_games():
    game = game_class("ultimatum_cards_v2").from_config({"num_players": 5, "blockers": "any"})
    for seed in range(30):
        state = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        while not state.is_terminal():
            if state.current_player % 2 == 0:
                action = choose_action(state, Rng(seed))
                assert state.legal_action_mask()[action]
            else:
                action = pick.choice(state.legal_actions())
            state.apply(action)


def test_ends_the_round_when_ahead_but_not_when_behind():
    ahead = position({0: ["Round", "Take 1"]}, chips=[14, 10, 9, 7])
    assert bot_move(ahead) == "play Round"
    behind = position({0: ["Round", "Take 1"]}, chips=[9, 12, 9, 10])
    assert bot_move(behind) == "play Take 1"


def test_steals_from_the_leader():
    state = position({0: ["Steal", "Draw"]}, chips=[6, 3, 15, 6])
    do(state, "play Steal")
    assert bot_move(state) == "choose player_2"


def test_takes_from_the_leader():
    state = position({0: ["Take 3"]}, chips=[10, 8, 9, 13])
    do(state, "play Take 3")
    assert bot_move(state) == "choose player_3"


def test_blocks_when_targeted_by_a_steal():
    state = position({0: ["Steal", "Draw"], 1: ["Block", "Draw"]}, chips=[10, 12, 10, 8])
    do(state, "play Steal", "choose player_1")
    assert state.current_player == 1 and bot_move(state) == "block"


def test_counters_to_grab_a_share_of_an_ultimatum():
    state = position({0: ["Ultimatum", "Draw"], 2: ["Counter", "Draw"]}, chips=[10, 4, 8, 12])
    do(state, "play Ultimatum", "choose player_1", "choose player_3", "offer: 2 to player_1, 10 to you", "pass")
    assert state.current_player == 2
    assert bot_move(state) == "counter: 3 to player_1, 9 to you"


def test_accepts_the_best_split_and_rejects_a_harmful_one():
    state = position({0: ["Ultimatum", "Draw"], 2: ["Counter", "Draw"]}, chips=[10, 9, 3, 12])
    do(state, "play Ultimatum", "choose player_1", "choose player_3", "offer: 6 to player_1, 6 to you",
       "pass", "counter: 7 to player_1, 5 to you", "pass")  # every seat but the responder is asked
    assert bot_move(state) == "accept player_2's proposal (7 to you)"
    stingy = position({0: ["Ultimatum", "Draw"]}, chips=[9, 9, 3, 12])
    do(stingy, "play Ultimatum", "choose player_1", "choose player_3", "offer: 0 to player_1, 12 to you",
       "pass", "pass", "pass")
    assert bot_move(stingy) == "reject all proposals"  # accepting makes the proposer the new leader


def test_as_target_with_a_block_it_keeps_its_counter_and_blocks_instead():
    from tests.ultimatum_cards.test_rules import ultimatum_table

    state = ultimatum_table()
    do(state, "pass", "pass")
    assert state.current_player == 2 and bot_move(state) == "pass"
    do(state, "pass", "accept player_0's proposal (4 to you)")
    assert bot_move(state) == "block"


def test_ahead_it_makes_the_biggest_hand_draw_not_the_poorest():
    state = position({0: ["Draw", "Take 1"], 1: ["Take 2", "Take 3", "Give 1"], 2: ["Give 2"], 3: ["Give 3"]},
                     chips=[16, 10, 9, 5], pile=["Swap", "Steal"])
    do(state, "play Draw")
    assert bot_move(state) == "choose player_1"


def test_never_plays_an_ultimatum_on_players_without_chips():
    state = position({0: ["Ultimatum", "Block"]}, chips=[40, 0, 0, 0])
    assert bot_move(state) == "play Block"
    state = position({0: ["Ultimatum"]}, chips=[10, 0, 25, 5])
    do(state, "play Ultimatum")
    do(state, bot_move(state))  # the responder
    assert bot_move(state) == "choose player_2", "the target is a player with chips"
