"""The ansi text view: readable without the source (who holds what, and what the sea notation means)."""

from __future__ import annotations

import random

from ultimata.envs import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world import phases as P

from .positions import BLACK, nation, place, play, position, sea


def test_text_view_says_unowned_and_keys_its_nation_and_sea_notation():
    fresh = game_class("ultimatum_world_v4").from_config({"num_players": 3}).new_initial_state(Rng(1))
    text = fresh.render_text(0)
    assert "p-1" not in text and "Canada unowned" in text and "Seas: all vacant" in text
    s = position(nations={"France": (1, 10)}, seas={2: (1, 3, 2)})
    text = s.render_text(0)
    key = next(line for line in text.splitlines() if line.startswith("Key: "))
    assert "'France* p1:10' = France (* a Worldpower), held by player_1 with 10 troops" in key
    assert "'blockade 2 p1:3b2s' = player_1's 3 battleships and 2 submarines there" in key
    assert "France* p1:10" in text and "blockade 2 p1:3b2s" in text, "the board uses the notation of its key"


def labels(s) -> list[str]:
    return [s.action_to_string(a) for a in s.legal_actions()]


def test_amount_choices_that_move_the_same_count_say_they_are_the_same_move():
    """Issue 45 / 42: 'one', 'half' and 'all' of a few pieces can be the same count; each button says which
    choice it is rather than showing one label twice."""
    s = position(nations={"U.S.A.": (0, 3), "Canada": (1, 1)}, rolls=[BLACK[28], BLACK[2]])
    play(s, A.ATTACK, place(nation("U.S.A.")), place(nation("Canada")), A.ROLL)
    assert labels(s) == ["move 1 troop into Canada", "move 1 troop into Canada (half of 2: the same as 'one')",
                         "move all 2 troops into Canada"]
    s = position(nations={"North Korea": (0, 1)}, phase=P.BUY)
    s.bank[0] = 3
    play(s, A.BUY_TROOPS_ALL, place(nation("North Korea")))
    assert labels(s) == ["place 1 troop on North Korea", "place 1 troop on North Korea (half of 3: the same as 'one')",
                         "place all 3 troops on North Korea"]
    s = position(seas={2: (0, 1, 0), (2, 5, 7): (1, 2, 0)})
    play(s, A.MOVE_BATTLESHIPS, place(sea(2), at_sea=True), place(sea((2, 5, 7)), at_sea=True))
    assert labels(s) == ["attack with 1 battleship", "attack with 1 battleship (half of 1: the same as 'one')",
                         "attack with 1 battleship (all 1: the same as 'one')"]
    assert s.narrate(A.AMOUNT_HALF) == "player_0 attacks with 1 battleship", "the table hears the count only"


def test_no_decision_offers_two_moves_with_the_same_words():
    pick = random.Random(3)
    for config in ({"num_players": 2, "setup": "dealt"}, {"num_players": 5, "setup": "dealt", "max_rounds": 3}):
        s = game_class("ultimatum_world_v4").from_config(config).new_initial_state(Rng(4))
        while not s.is_terminal():
            words = labels(s)
            assert len(set(words)) == len(words), words
            s.apply(pick.choice(s.legal_actions()))
