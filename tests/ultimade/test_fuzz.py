"""Random ULTIMADE games across rule variants: the invariants hold at every decision, masks are exact,
and saved states continue identically."""

from __future__ import annotations

import json
import random

import pytest

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade.board import BIT, NEIGHBOURS
from ultimata.envs.ultimade.game import UltimadeGame

from .random_play import VARIANTS, invariants, mask_is_exact


@pytest.mark.parametrize("config", VARIANTS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_random_games_keep_the_invariants(config: dict) -> None:
    game = UltimadeGame.from_config({"max_cycles": 120, **config})
    pick = random.Random(7)
    decisions = 0
    for seed in range(12):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            invariants(state)
            if decisions % 31 == 0:
                mask_is_exact(state)
            if decisions % 5 == 0:  # every position the rules reach loads back as itself
                assert game.state_from_dict(state.state_dict()).state_dict() == state.state_dict()
            state.apply(pick.choice(state.legal_actions()))
            decisions += 1
        returns = state.returns()
        assert sum(returns) == 0 and state.current_player == -1 and state.legal_actions() == []
        a, b = state.score
        assert returns == ([1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0])
    assert decisions > 1000


def test_marking_limit_holds_after_every_defense_run() -> None:
    """Whenever a defender ends a run, no offense player next to him has a second marker."""
    game = UltimadeGame.from_config({"max_cycles": 150})
    pick = random.Random(3)
    checked = 0
    for seed in range(4):
        state = game.new_initial_state(Rng(seed))
        while not state.is_terminal():
            runner, defending = state.runner, state.runner >= 0 and state.runner >> 2 != state.offense
            state.apply(pick.choice(state.legal_actions()))
            if defending and not state.is_terminal() and state.pos[runner] >= 0:
                f = state.pos[runner]
                defenders = state.team_bb[runner >> 2]
                base = (1 - (runner >> 2)) * 4
                for o in state.pos[base : base + 4]:
                    if NEIGHBOURS[o] & BIT[f]:
                        assert (NEIGHBOURS[o] & defenders).bit_count() == 1
                checked += 1
    assert checked > 100


def test_state_dict_round_trip_mid_game_continues_identically() -> None:
    game = UltimadeGame.from_config({"max_cycles": 80})
    for seed in (1, 2):
        state = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        for _ in range(300):
            state.apply(pick.choice(state.legal_actions()))
        saved = json.loads(json.dumps(state.state_dict()))
        restored = game.state_from_dict(saved)
        assert restored.state_dict() == state.state_dict()
        pick_a, pick_b = random.Random(99), random.Random(99)
        while not state.is_terminal():
            assert restored.legal_actions() == state.legal_actions()
            action = pick_a.choice(state.legal_actions())
            assert action == pick_b.choice(restored.legal_actions())
            state.apply(action)
            restored.apply(action)
        assert restored.state_dict() == state.state_dict() and restored.is_terminal()


def test_clone_is_independent() -> None:
    game = UltimadeGame.from_config({})
    state = game.new_initial_state(Rng(4))
    pick = random.Random(4)
    for _ in range(120):
        state.apply(pick.choice(state.legal_actions()))
    before = state.state_dict()
    other = state.clone()
    for _ in range(60):
        other.apply(pick.choice(other.legal_actions()))
    assert state.state_dict() == before


def test_load_refuses_a_broken_state_dict_and_keeps_the_state() -> None:
    from ultimata.envs.core.errors import UltimataError

    game = UltimadeGame.from_config({})
    state = game.new_initial_state(Rng(0))
    good = state.state_dict()
    bad = json.loads(json.dumps(good))
    bad["state"]["pos"] = [3, 3, -1, -1, -1, -1, -1, -1]
    with pytest.raises(UltimataError):
        state.load_state_dict(bad)
    assert state.state_dict() == good
