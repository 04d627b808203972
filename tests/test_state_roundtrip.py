"""Every position play reaches saves and loads back, and the loaded one is the same game (issue 50): for
every registered game, over its player counts and the rule options that change what can happen, long
random and scripted games are played, and at every state reached `state_dict()` (through JSON) loads
into a fresh state that has the same legal mask, every seat's observation, the returns and the same
dict, and that after the same move, with the same dice to come, reaches the same next state. A twin
loaded every `TWIN_EVERY` decisions also plays on in lockstep, so a difference that shows only later
is caught too. ULTIMATA_ROUNDTRIP_GAMES=N plays N games per case instead of 2."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from ultimata.agents.scripted_agent import scripted_policy
from ultimata.envs import GAMES, game_class
from ultimata.envs.core.engine import State
from ultimata.envs.core.registry import game_base_name
from ultimata.envs.core.rng import Rng

GAMES_PER_CASE = int(os.environ.get("ULTIMATA_ROUNDTRIP_GAMES", 2))
SHORT_GAMES = {"ultimatum_cards": 4}
"""Games whose games are short play this many times as many."""
DECISIONS_KEPT = int(os.environ.get("ULTIMATA_ROUNDTRIP_DECISIONS", 500))
"""Each game is checked for at most this many decisions (then left unfinished)."""
TWIN_EVERY = 100

CASES: dict[str, list[dict[str, Any]]] = {
    "ultimatum_cards": [
        *({"num_players": n} for n in (3, 4, 5, 6)),
        {"num_players": 4, "blockers": "any", "target_blocks_own_counter": False, "give_to_self": True,
         "last_card_ends_round": True, "draw_count": 0},
        {"num_players": 3, "mode": "match", "match_rounds": 3},
        {"num_players": 5, "mode": "match", "match_rounds": 2, "chips_carry_over": True},
        {"num_players": 4, "mode": "point", "target_score": 20},
    ],
    "ultimade": [
        {},
        {"run_through": "any", "throw_needs_free_field": False, "monster_defense": False, "straight_pull": False,
         "first_receiver": "random"},
        {"run_through": "team", "monster_defense_in_endzone": False, "endzone_depth": 1, "run_length": 2},
    ],
    "ultra_war": [
        {"scenario": "street_clash"},
        {"scenario": "relay_hold", "first_player": "player_1", "initiative_mode": "sum"},
        {"scenario": "rooftop_rescue", "army": "draft", "turned_characters_strike": False,
         "destroyed_source_points": "lost"},
        {"army": "draft", "hand_limit": 2},
    ],
    "conquest_of_the_world": [
        *({"num_players": n, "max_turns": 12} for n in (2, 3, 4, 5, 6)),
        {"num_players": 4, "max_turns": 12, "one_homeland_per_zone": True, "homeland_siege": "held",
         "homeland_siege_by": "attacker", "zone_bonus_once": False, "alliance_battles": "declarer"},
        {"num_players": 3, "max_turns": 12, "player_alliances": False, "end_game": False, "war_energy": 300},
    ],
    "ultimatum_world": [
        {"num_players": 2, "setup": "dealt", "max_rounds": 3, "pieces": None},
        {"num_players": 3, "setup": "dealt", "max_rounds": 3, "reaction_windows": "revealing",
         "turn_money_kept": True},
        {"num_players": 4, "max_rounds": 2},
        {"num_players": 5, "setup": "dealt", "max_rounds": 3},
        {"num_players": 6, "setup": "dealt", "max_rounds": 2},
    ],
}
"""Rule options per game's package name, each a config the game's own tests and docs name."""


Policy = Callable[[State, Rng], int]


def _random(state: State, rng: Rng) -> int:
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def _text(state: State) -> str:
    return json.dumps(state.state_dict(), sort_keys=True)


def _differences(original: State, saved: str, other: State) -> list[str]:
    """What tells `other` from `original` (whose state dict is `saved`), as far as play, the seats and
    saving can see."""
    a, b, out = original, other, []
    if a.is_terminal() != b.is_terminal() or a.current_player != b.current_player:
        out.append(f"turn: {a.current_player} vs {b.current_player} (terminal {a.is_terminal()} vs {b.is_terminal()})")
    if not np.array_equal(a.legal_action_mask(), b.legal_action_mask()):
        out.append("legal mask")
    if list(a.returns()) != list(b.returns()):
        out.append(f"returns {a.returns()} vs {b.returns()}")
    for seat in range(a.game.num_players):
        if not np.array_equal(a.observation(seat), b.observation(seat)):
            out.append(f"observation of seat {seat}")
    if _text(b) != saved:
        out.append("state dict")
    return out


def _check_game(name: str, config: dict[str, Any], seed: int, policies: list[Policy]) -> int:
    """Plays one game, checking every state reached; returns the states checked."""
    game = game_class(name).from_config(config)
    state = game.new_initial_state(Rng(seed))
    seat_rngs = [Rng(seed * 7 + seat) for seat in range(game.num_players)]
    stepped: State | None = None
    """The state loaded at the previous decision, then given the same move."""
    twin: State | None = None
    """A state loaded every TWIN_EVERY decisions and given every move since."""
    checked = 0
    while checked < DECISIONS_KEPT:
        where = f"{name} {config} seed {seed} decision {state.decisions}"
        saved = _text(state)
        try:
            loaded = game.state_from_dict(json.loads(saved))
        except Exception as err:  # the report must name the position whatever the loader raised
            raise AssertionError(f"{where}: the state reached is refused on reload: {err}") from None
        for other, what in ((loaded, "the reloaded state differs"),
                            (stepped, "the state reloaded a move ago went elsewhere after the same move"),
                            (twin, f"a state reloaded up to {TWIN_EVERY} moves ago drifted")):
            if other is not None:
                assert not (diff := _differences(state, saved, other)), f"{where}: {what}: {diff}"
        checked += 1
        if state.is_terminal():
            break
        if state.decisions % TWIN_EVERY == 0:
            twin = game.state_from_dict(json.loads(saved))
        action = policies[state.current_player](state, seat_rngs[state.current_player])
        for each in (state, loaded, twin):
            if each is not None:
                each.apply(action)
        stepped = loaded
    return checked


def _cases() -> list[Any]:
    package_of = {package.rpartition(".")[2]: name for name, package in GAMES.items()}
    assert set(package_of) == set(CASES), "every registered game has its round-trip cases"
    return [pytest.param(package_of[base], config, id=f"{base}-{i}") for base, configs in CASES.items()
            for i, config in enumerate(configs)]


@pytest.mark.parametrize(("name", "config"), _cases())
def test_every_reached_state_loads_back_and_plays_on_identically(name: str, config: dict[str, Any]) -> None:
    scripted = scripted_policy(name)
    checked, games = 0, GAMES_PER_CASE * SHORT_GAMES.get(game_base_name(name), 1)
    for seed in range(games):
        seats = game_class(name).from_config(config).num_players
        # the first game random seats; the next ones the scripted bot at every other seat
        policies = [_random if seed % 2 == 0 or seat % 2 else scripted for seat in range(seats)]
        checked += _check_game(name, config, seed, policies)
    assert checked > 10 * games, "the games were played, not ended at once"
