"""Every game keeps the engine contract: exact masks, refused illegal actions that change nothing,
exact state_dict round trips, zero-sum returns. Fuzzed over seeded random games."""

import json
import random

import numpy as np
import pytest

from ultimata.envs import GAMES, IllegalActionError, UltimataError, game_class
from ultimata.envs.core.rng import Rng


def random_states(name: str, games: int, seed: int = 0, max_decisions: int = 3000):
    """Yield every state of `games` random games (the state object is reused: copy before keeping)."""
    game = game_class(name).from_config({})
    pick = random.Random(seed)
    for g in range(games):
        state = game.new_initial_state(Rng(seed + g))
        while not state.is_terminal() and state.decisions < max_decisions:
            yield state
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        yield state


@pytest.mark.parametrize("name", list(GAMES))
def test_every_masked_action_applies_and_every_unmasked_is_refused(name: str) -> None:
    num_actions = game_class(name).from_config({}).num_actions
    checked = 0
    for state in random_states(name, games=6, max_decisions=250):
        mask = state.legal_action_mask().copy()
        if state.is_terminal():
            assert not mask.any()
            continue
        assert mask.any(), "a live state must offer at least one action"
        before = state.state_dict()
        for action in np.flatnonzero(mask == 0):
            with pytest.raises(IllegalActionError, match="not legal"):
                state.apply(int(action))
        for bad in (-1, num_actions, 10**9, None, 1.5, "0", True, False, 1.0, np.float32(1.0)):
            with pytest.raises(IllegalActionError):
                state.apply(bad)
        assert state.state_dict() == before, "a refused action changed the state"
        for action in np.flatnonzero(mask):
            trial = state.clone()
            trial.apply(int(action))
            checked += 1
        assert state.state_dict() == before, "applying to a clone changed the original"
    assert checked > 100


@pytest.mark.parametrize("name", list(GAMES))
def test_state_dict_round_trip_continues_identically(name: str) -> None:
    game = game_class(name).from_config({})
    for seed in range(5):
        state = game.new_initial_state(Rng(seed))
        pick = random.Random(seed)
        for _ in range(pick.randrange(1, 60)):
            if state.is_terminal():
                break
            state.apply(pick.choice(state.legal_actions()))
        saved = json.loads(json.dumps(state.state_dict()))
        restored = game.new_initial_state(Rng(999))
        restored.load_state_dict(saved)
        for _ in range(400):
            if state.is_terminal():
                break
            assert restored.legal_actions() == state.legal_actions()
            assert np.array_equal(restored.observation(0), state.observation(0))
            action = pick.choice(state.legal_actions())
            state.apply(action)
            restored.apply(action)
        assert restored.state_dict() == state.state_dict()


@pytest.mark.parametrize("name", list(GAMES))
def test_malformed_state_dict_is_refused_and_changes_nothing(name: str) -> None:
    from ultimata.envs import UltimataError

    game = game_class(name).from_config({})
    state = game.new_initial_state(Rng(1))
    before = state.state_dict()
    broken = json.loads(json.dumps(before))
    broken["state"] = {"nonsense": 1}
    for bad in ({}, {**before, "game": "other_v0"}, {**before, "version": 99}, broken, "text"):
        with pytest.raises(UltimataError):
            state.load_state_dict(bad)
    assert state.state_dict() == before


@pytest.mark.parametrize("name", list(GAMES))
def test_returns_are_zero_sum_and_seeded_games_repeat(name: str) -> None:
    finals = []
    for _ in range(2):
        ends = [s.state_dict() for s in random_states(name, games=3, seed=11) if s.is_terminal()]
        finals.append(ends)
    assert finals[0] == finals[1]
    for state in random_states(name, games=10, seed=5):
        if state.is_terminal():
            assert abs(sum(state.returns())) < 1e-9
            assert any(r != 0 for r in state.returns()) or len(set(state.returns())) == 1


@pytest.mark.parametrize("name", list(GAMES))
def test_observations_have_the_declared_shape_and_dtype(name: str) -> None:
    game = game_class(name).from_config({})
    for i, state in enumerate(random_states(name, games=2, seed=3)):
        if i % 7:
            continue
        for seat in range(game.num_players):
            obs = state.observation(seat)
            assert obs.shape == game.observation_shape
            assert obs.dtype == game.observation_dtype
            assert np.isfinite(obs.astype(np.float64)).all()


def _integer_leaves(node, path=()):
    """Paths to every int (not bool) inside a JSON-like tree."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _integer_leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _integer_leaves(value, (*path, i))
    elif isinstance(node, int) and not isinstance(node, bool):
        yield path


def _set(tree, path, value):
    for key in path[:-1]:
        tree = tree[key]
    tree[path[-1]] = value


@pytest.mark.parametrize("name", list(GAMES))
def test_perturbed_state_dicts_are_refused_or_load_live(name: str) -> None:
    """A hand-edited or damaged state dict never loads into a broken game: it is refused with a clear
    UltimataError, or it loads into a state that is over or has a legal action and plays on."""
    game = game_class(name).from_config({})
    pick = random.Random(7)
    loaded = refused = 0
    for seed in range(4):
        state = game.new_initial_state(Rng(seed))
        for _ in range(pick.randrange(5, 120)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[pick.randrange(len(legal))])
        saved = state.state_dict()
        leaves = list(_integer_leaves(saved["state"]))
        for path in pick.sample(leaves, min(60, len(leaves))):
            original = saved["state"]
            for key in path:
                original = original[key]
            for value in (original + 1, original - 1, -1, 10**6):
                edited = json.loads(json.dumps(saved))
                _set(edited["state"], path, value)
                target = game.new_initial_state(Rng(0))
                try:
                    target.load_state_dict(edited)
                except UltimataError as err:
                    assert str(err), "a refusal must say what is wrong"
                    refused += 1
                    continue
                loaded += 1
                for _ in range(20):
                    if target.is_terminal():
                        break
                    legal = target.legal_actions()
                    assert legal, f"perturbing {path} -> {value} loaded a live state with no legal action"
                    target.apply(legal[pick.randrange(len(legal))])
    assert loaded and refused


@pytest.mark.parametrize("name", list(GAMES))
def test_narration_speaks_of_the_mover_in_the_third_person(name: str) -> None:
    """Observers read other seats' moves: 'player_2 offers 3 to player_0', never 'you'."""
    import re

    told = 0
    for state in random_states(name, games=3, max_decisions=200):
        if state.is_terminal():
            continue
        for action in state.legal_actions()[:8]:
            words = state.narrate(action)
            assert f"player_{state.current_player}" in words and not re.search(r"\byou(rs?|rself)?\b", words), words
            told += 1
    assert told > 50
