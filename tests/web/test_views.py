"""The JSON views the page draws hold nothing a seat may not see: changing what is hidden from a seat
leaves its view unchanged, and what a seat chose in secret shows only to that seat."""

from __future__ import annotations

import copy
import random

from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng
from ultimata.web.views import view_module

from .names import env_name


def play_until(name: str, config: dict, seed: int, stop) -> object:
    state = game_class(name).from_config(config).new_initial_state(Rng(seed))
    pick = random.Random(seed)
    while not stop(state):
        assert not state.is_terminal(), "the game ended before the position under test"
        state.apply(pick.choice(state.legal_actions()))
    return state


def test_a_conquest_weapon_choice_shows_only_to_its_chooser() -> None:
    name = env_name("conquest_of_the_world")
    views = view_module(name)
    state = play_until(name, {}, 2, lambda s: s.pending >= 0)
    chooser = views.view(state, 0)["battle"]["directors"][0]
    for seat in range(state.n):
        seen = []
        for pick in range(9):  # every weapon and spend the first side could have chosen
            other = copy.deepcopy(state)
            other.pending = pick
            seen.append(views.view(other, seat))
        if seat == chooser:
            assert len({str(v["battle"]["your_pick"]) for v in seen}) == 9
        else:
            assert all(v == seen[0] for v in seen), f"player_{seat} can tell the hidden weapon apart"
            assert seen[0]["battle"]["your_pick"] is None and seen[0]["battle"]["first_chosen"]


def test_an_ultra_war_view_shows_its_own_hand_with_texts_and_nothing_of_the_other() -> None:
    name = env_name("ultra_war")
    views = view_module(name)
    state = play_until(name, {"first_player": "player_0"}, 0, lambda s: True)
    mine = views.view(state, 0)
    assert [c["name"] for c in mine["cards"]] == state.hands[0] and all(c["text"] for c in mine["cards"])
    other = copy.deepcopy(state)
    other.hands[1] = list(reversed(other.hands[1]))
    other.decks[1] = list(reversed(other.decks[1]))
    other.decks[0] = list(reversed(other.decks[0]))
    assert views.view(other, 0) == mine, "the other hand or a deck's order shows in player_0's view"
    assert views.view(state, None)["cards"] == []


def test_an_ultra_war_unit_is_activated_by_a_click_on_it() -> None:
    name = env_name("ultra_war")
    views = view_module(name)
    state = play_until(name, {"first_player": "player_0"}, 0,
                       lambda s: any(m["target"] == "unit" for m in views.moves(s)))
    pawns = {p["field"]: p for p in views.view(state, state.current_player)["pawns"]}
    for move in (m for m in views.moves(state) if m["target"] == "unit"):
        unit = pawns[move["field"]]
        assert unit["side"] == state.current_player and move["label"] == f"activate {unit['name']}"


def test_the_world_wargame_chain_of_clicks_shows_only_to_its_player() -> None:
    name = env_name("ultimatum_world")
    views = view_module(name)
    state = play_until(name, {"num_players": 3}, 1, lambda s: len(s.pending) == 2)
    me = state.current_player
    chain = views.view(state, me)["chain"]
    assert chain["at"] == 2 and len(chain["chosen"]) == 1 and chain["steps"][0] in views.view(state, me)["prompt"]
    for seat in [*(q for q in range(3) if q != me), None]:
        assert views.view(state, seat)["chain"] is None and views.view(state, seat)["prompt"] is None
