"""What the table says to a person (issue 42): a reaction window asks each seat only what it can do, and
a finished game says why it ended."""

import pytest

from ultimata.envs.ultimatum_cards.phases import OVER
from ultimata.envs.ultimatum_cards.text import end_reason, prompt
from ultimata.envs.ultimatum_cards.view import view

from .positions import do, position
from .test_rules import ultimatum_table


def test_the_initiator_asked_to_counter_is_told_its_offer_is_made_and_what_a_counter_would_do():
    state = ultimatum_table()  # counters: player_3, then the initiator player_0, then the target player_2
    assert state.current_player == 3
    assert prompt(state, 3) == ("play your Counter card to offer player_1 a split of player_2's chips with you, "
                                "or 'pass'")
    assert prompt(state, 0) == "counter or pass", "a seat that is not deciding reads the phase's name"
    do(state, "pass")
    assert view(state, 0)["phase"] == (
        "your offer is made; you may still play your Counter card to make player_1 a second offer for "
        "player_2's chips (they may accept either), or 'pass'")
    do(state, "pass")
    assert prompt(state, 2).startswith("you are the target: play your Counter card to offer player_1")


def test_a_block_window_names_the_card_it_would_block():
    state = position({0: ["Steal", "Draw"], 1: ["Block", "Draw"]})
    do(state, "play Steal", "choose player_1")
    assert prompt(state, 1) == "block player_0's Steal with your Block card ('block'), or 'pass'"


@pytest.mark.parametrize(("hands", "moves", "config", "why"), [
    ({0: ["Round", "Draw"]}, ["play Round"], {},
     "The round ended: player_0 played a Round card; quick play lasts one round."),
    ({0: ["Take 2"]}, ["play Take 2", "choose player_1"], {},
     "The round ended: player_0 played the last card of their hand; quick play lasts one round."),
    ({0: ["Swap"], 1: ["Draw", "Draw"]}, ["play Swap", "choose player_1", "swap hands", "pass"], {},
     "The round ended: player_1 was left with no cards by a swap of hands; quick play lasts one round."),
    ({0: ["Draw"]}, ["play Draw", "choose yourself"], {"last_card_ends_round": True},
     "The round ended: player_0 played the last card of their hand (a Draw, with last_card_ends_round); "
     "quick play lasts one round."),
    ({0: ["Take 2"]}, ["play Take 2", "choose player_1"], {"mode": "point", "target_score": 12},
     "The round ended: player_0 played the last card of their hand; player_0 reached the target score of 12."),
])
def test_a_finished_game_says_what_ended_the_round_and_why_it_was_the_last(hands, moves, config, why):
    state = position(hands, pile=["Steal", "Swap"], **config)
    do(state, *moves)
    assert state.phase == OVER
    assert end_reason(state).startswith(why) and "Final scores: player_0" in end_reason(state)
    assert view(state, 1)["end_reason"] == end_reason(state) and why in state.render_text(0)
