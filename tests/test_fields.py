"""The one declaration of a position (envs/core/fields.py) refuses what its kinds refuse, in every game: each
whole-number field, at the top or the first entry of a list of them, refuses 1.5, True, None and "1" with an
error naming that field; and a clone shares nothing that play changes in place."""

from __future__ import annotations

import copy
import random
import re

import pytest

from ultimata.envs import GAMES, game_class
from ultimata.envs.core.errors import UltimataError
from ultimata.envs.core.fields import Int, ListOf
from ultimata.envs.core.rng import Rng

NOT_INTS = (1.5, True, None, "1")


def _mid_game(name: str):
    game = game_class(name).from_config({})
    state = game.new_initial_state(Rng(4))
    pick = random.Random(4)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(pick.choice(state.legal_actions()))
    return game, state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_whole_number_field_refuses_what_is_not_one_by_name(name: str) -> None:
    game, state = _mid_game(name)
    saved = state.state_dict()
    checked = 0
    for key, kind in type(state).FIELDS.saved.items():
        value = saved["state"][key]
        if isinstance(kind, Int):
            where, path = key, (key,)
        elif isinstance(kind, ListOf) and isinstance(kind.kind, Int) and value:
            where, path = f"{key}[0]", (key, 0)
        else:
            continue
        for bad in NOT_INTS:
            d = copy.deepcopy(saved)
            parent = d["state"]
            for step in path[:-1]:
                parent = parent[step]
            parent[path[-1]] = bad
            with pytest.raises(UltimataError, match=re.escape(f"{where} must be")):
                game.state_from_dict(d)
            checked += 1
    assert checked >= 20, f"only {checked} whole-number fields checked"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_clone_shares_nothing_play_changes(name: str) -> None:
    _, state = _mid_game(name)
    other = state.clone()
    fields = type(state).FIELDS
    for attr, _ in fields.copiers:
        assert getattr(other, attr) is not getattr(state, attr) or getattr(state, attr) is None, attr
    before = state.state_dict()
    pick = random.Random(1)
    while not other.is_terminal() and other.decisions < state.decisions + 60:
        other.apply(pick.choice(other.legal_actions()))
    assert state.state_dict() == before, "playing on a clone changed the original"
