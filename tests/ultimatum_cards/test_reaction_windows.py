"""Reaction windows (issue 50): by default every eligible seat is asked to Counter or Block, in the book's
order, so who is asked and what every seat sees depend on no hidden card; `reaction_windows: revealing`
asks only the holders, and re-dealing the hidden hands then changes who is asked."""

import copy
import random

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import deck
from ultimata.envs.ultimatum_cards.phases import BLOCKS, COUNTERS, OVER, PLAY, RESPOND

from .positions import do, legal_names, position

WINDOWS = (COUNTERS, BLOCKS)


def _play_out(state, viewer: int, seed: int) -> list:
    """The rest of the play in progress, every reaction a pass and every other choice drawn from `seed`:
    who decides at each step, and what `viewer` sees then (its own hand is never re-dealt)."""
    pick, seen = random.Random(seed), []
    while state.phase not in (PLAY, OVER):
        legal = state.legal_actions()
        seen.append((state.current_player, state.phase, state.observation(viewer)))
        state.apply(state.layout.pass_ if state.phase in WINDOWS else pick.choice(legal))
    seen.append((state.current_player, state.phase, None))
    return seen


def _leaks(config: dict, games: int) -> int:
    """How many (position, viewer, re-deal) triples change the turn order or a seat's view of a play with a
    reaction window: every other hand re-dealt as `viewer` could believe it (same sizes)."""
    game = game_class("ultimatum_cards_v2").from_config(config)
    pick, leaks, checked = random.Random(7), 0, 0
    for seed in range(games):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            if state.phase != PLAY and state.card in (deck.SWAP, deck.STEAL, deck.ULTIMATUM) and state.p1 < 0:
                for viewer in range(state.n):
                    other = state.sample_consistent(viewer, Rng(seed * 31 + viewer))
                    assert [sum(h) for h in other.hands] == [sum(h) for h in state.hands]
                    a, b = _play_out(state.clone(), viewer, seed), _play_out(other, viewer, seed)
                    same = len(a) == len(b) and all(
                        pa == pb and sa == sb and (oa is None or np.array_equal(oa, ob))
                        for (pa, sa, oa), (pb, sb, ob) in zip(a, b))
                    leaks += not same
                    checked += 1
            state.apply(pick.choice(state.legal_actions()))
    assert checked > 20, "enough plays with a reaction window were re-dealt"
    return leaks


@pytest.mark.parametrize("config", [
    {"num_players": 3}, {"num_players": 6}, {"num_players": 4, "blockers": "any"},
    {"num_players": 5, "blockers": "any", "target_blocks_own_counter": False},
], ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()))
def test_re_dealt_hidden_hands_change_neither_who_is_asked_nor_what_any_seat_sees(config: dict) -> None:
    assert _leaks(config, games=15) == 0


def test_revealing_windows_let_a_re_deal_change_who_is_asked() -> None:
    assert _leaks({"num_players": 4, "blockers": "any", "reaction_windows": "revealing"}, games=6) > 0


def test_every_eligible_seat_is_asked_to_counter_in_the_books_order_holding_a_counter_or_not() -> None:
    state = position({0: ["Ultimatum", "Draw"], 3: ["Counter", "Draw"]}, chips=[10, 10, 12, 8])
    do(state, "play Ultimatum", "choose player_1", "choose player_2", "offer: 6 to player_1, 6 to you")
    asked = []
    while state.phase != RESPOND:
        asked.append((state.current_player, len(legal_names(state))))
        do(state, "pass")
    assert asked == [(3, 12 + 1 + 1), (0, 1), (2, 1)]  # left of the target, the responder skipped, target last
    assert sum(map(sum, state.showed)) == 0, "being asked shows nothing"


def test_a_seat_without_the_card_may_only_pass_and_is_told_so() -> None:
    state = position({0: ["Steal", "Draw"]}, chips=[10, 10, 10, 10], blockers="any")
    do(state, "play Steal", "choose player_2")
    for seat in (1, 2, 3):
        assert state.current_player == seat and legal_names(state) == ["pass"]
        assert state.render_text(seat).endswith(f"player_{seat} to pass: you hold no Block card to block "
                                                "player_0's Steal")
        assert "pass: you hold no" not in state.render_text(0), "the other seats are told nothing of it"
        do(state, "pass")
    assert state.chips == [20, 10, 0, 10] and state.phase == PLAY


def test_the_scripted_bot_passes_a_window_it_holds_no_card_for() -> None:
    from ultimata.envs.ultimatum_cards.scripted import choose_action

    state = position({0: ["Steal", "Draw"]}, chips=[10, 10, 10, 10])
    do(state, "play Steal", "choose player_2")
    assert choose_action(state, Rng(0)) == state.layout.pass_


def test_reaction_windows_is_validated_naming_what_is_allowed() -> None:
    with pytest.raises(UltimataError, match=r"reaction_windows.*'always' or 'revealing'.*got 'sometimes'"):
        game_class("ultimatum_cards_v2").from_config({"reaction_windows": "sometimes"})


def _window_state(config: dict) -> tuple:
    game = game_class("ultimatum_cards_v2").from_config(config)
    pick, state = random.Random(3), game.new_initial_state(Rng(3))
    while not (state.phase in WINDOWS and len(state.queue) > 1):
        state.apply(pick.choice(state.legal_actions()))
    return game, state.state_dict()


def test_a_saved_window_must_ask_every_eligible_seat_and_show_nothing() -> None:
    game, d = _window_state({"blockers": "any"})
    assert game.state_from_dict(copy.deepcopy(d)).state_dict() == d, "a real position loads back exactly"
    skipped = copy.deepcopy(d)
    del skipped["state"]["queue"][1]
    with pytest.raises(UltimataError, match=r"queue is the players .*reaction_windows: always"):
        game.state_from_dict(skipped)
    shown = copy.deepcopy(d)
    seat = shown["state"]["queue"][0]
    shown["state"]["showed"][seat] = [1, 1]
    with pytest.raises(UltimataError, match="being asked shows no card unless reaction_windows is revealing"):
        game.state_from_dict(shown)
