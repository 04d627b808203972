"""A state dict is a snapshot: it never changes after it was taken, and the states loaded from it share
nothing with it or with each other. Checked for every registered game over seeded random play."""

import json
import random

import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.rng import Rng


def _play(state, moves: int, pick: random.Random) -> int:
    """Up to `moves` random legal moves; how many were made."""
    made = 0
    while made < moves and not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[pick.randrange(len(legal))])
        made += 1
    return made


def _text(d) -> str:
    return json.dumps(d, sort_keys=True)


def _scribble(node) -> None:
    """Change every list and dict inside a JSON-like tree in place (their old content stays readable)."""
    if isinstance(node, dict):
        for value in list(node.values()):
            _scribble(value)
        node["scribbled"] = True
    elif isinstance(node, list):
        for value in node:
            _scribble(value)
        node.append("scribbled")


def _mid_games(name: str, count: int = 4):
    """`count` seeded games 5-24 random moves in, still live: (seed, game, state, the move picker)."""
    game = game_class(name).from_config({})
    found = 0
    for seed in range(100):
        state = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        _play(state, pick.randrange(5, 25), pick)
        if not state.is_terminal():
            yield seed, game, state, pick
            found += 1
            if found == count:
                return
    raise AssertionError(f"fewer than {count} of 100 random {name} games last 25 moves")


@pytest.mark.parametrize("name", list(GAMES))
def test_a_state_dict_taken_mid_game_does_not_change_as_play_goes_on(name: str) -> None:
    for _, _, state, pick in _mid_games(name):
        snapshot = state.state_dict()
        taken = _text(snapshot)
        assert _play(state, 50, pick) > 0
        assert _text(state.state_dict()) != taken, "the game moved on, so its own dict must differ"
        assert _text(snapshot) == taken, "the saved snapshot changed with the game"


@pytest.mark.parametrize("name", list(GAMES))
def test_states_loaded_from_one_dict_share_nothing_with_it_or_each_other(name: str) -> None:
    for seed, game, state, pick in _mid_games(name):
        saved = json.loads(json.dumps(state.state_dict()))
        taken = _text(saved)
        first, second = game.state_from_dict(saved), game.state_from_dict(saved)
        assert _play(first, 50, pick) > 0
        assert _text(saved) == taken, "playing a loaded state changed the dict it was loaded from"
        assert _text(second.state_dict()) == taken, "playing one loaded state changed another"
        first_now = _text(first.state_dict())
        assert _play(second, 50, random.Random(seed + 100)) > 0
        assert _text(first.state_dict()) == first_now, "playing one loaded state changed another"
        second_now = _text(second.state_dict())
        _scribble(saved)
        assert _text(first.state_dict()) == first_now, "editing the dict changed a state loaded from it"
        assert _text(second.state_dict()) == second_now, "editing the dict changed a state loaded from it"
