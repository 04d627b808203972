"""Hostile actions through the Python API: anything that is not an action index of the game is refused
with IllegalActionError before any game code describes or applies it, and the state is left as it was."""

from __future__ import annotations

import numpy as np
import pytest

import ultimata.envs as envs
from ultimata.envs import GAMES
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.narration import apply_and_tell
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng, ScriptedRng

NOT_INTEGERS = [True, False, np.bool_(True), 1.0, 2.5, "1", None, [1], float("nan")]


def fresh(name: str):
    return game_class(name).from_config({}).new_initial_state(Rng(1))


def out_of_range(name: str) -> list[int]:
    n = game_class(name).from_config({}).num_actions
    return [-1, -100, -5000, -10**6, n, n + 1, 10**6, 10**40, -10**40]


@pytest.mark.parametrize("name", list(GAMES))
def test_out_of_range_actions_are_refused_by_every_describing_method(name) -> None:
    state = fresh(name)
    n = state.game.num_actions
    for action in out_of_range(name):
        for describe in (state.action_to_string, state.narrate):
            with pytest.raises(IllegalActionError, match=rf"0\.\.{n - 1}"):
                describe(action)


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("action", NOT_INTEGERS, ids=repr)
def test_anything_but_an_integer_is_refused_by_every_describing_method(name, action) -> None:
    state = fresh(name)
    for describe in (state.action_to_string, state.narrate):
        with pytest.raises(IllegalActionError, match="must be an integer"):
            describe(action)


@pytest.mark.parametrize("name", list(GAMES))
def test_every_in_range_action_is_described_even_when_it_is_not_legal_now(name) -> None:
    state = fresh(name)
    for action in range(state.game.num_actions):
        assert isinstance(state.action_to_string(action), str) and isinstance(state.narrate(action), str)
    assert state.action_to_string(np.int64(0)) == state.action_to_string(0)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_hostile_action_told_to_the_table_is_refused_before_it_is_described(name) -> None:
    """The web's event log and `ultimata play` tell moves through apply_and_tell: a negative action used to
    reach the game's describing code (IndexError, or Ultra War's "step to d7") before apply refused it."""
    state = fresh(name)
    illegal_in_range = next(a for a in range(state.game.num_actions) if not state.legal_action_mask()[a])
    before = state.state_dict()
    for action in [*out_of_range(name), illegal_in_range, True, 1.0]:
        for listener in (state.current_player, None):
            with pytest.raises(IllegalActionError):
                apply_and_tell(state, action, listener)
    assert state.state_dict() == before


@pytest.mark.parametrize("name", list(GAMES))
def test_a_huge_action_is_refused_without_printing_all_its_digits(name) -> None:
    """Python refuses to print an int of over 4,300 digits (ValueError): the refusal must still be ours."""
    state = fresh(name)
    huge = 10**5000
    for call in (state.apply, state.action_to_string, state.narrate):
        with pytest.raises(IllegalActionError, match="5001-digit") as refused:
            call(huge)
        assert len(str(refused.value)) < 2000


@pytest.mark.parametrize("name", list(GAMES))
def test_the_env_names_only_integer_actions(name) -> None:
    env = envs.make(name)
    env.reset(seed=0)
    for action in (True, 1.5, "3", -10**6):
        with pytest.raises(IllegalActionError):
            env.unwrapped.action_to_string(action)
        with pytest.raises(IllegalActionError):
            env.unwrapped.narrate(action)


@pytest.mark.parametrize("seed", [True, False, np.bool_(True), 1.0, "1", -1, [1]], ids=repr)
def test_a_seed_that_is_not_a_non_negative_integer_is_refused(seed) -> None:
    for make in (Rng, lambda s: ScriptedRng(seed=s)):
        with pytest.raises(ConfigError, match="seed"):
            make(seed)
    env = envs.make("ultimatum_cards_v3")
    with pytest.raises(ConfigError, match="seed"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", [True, np.bool_(False), 1.5, "1"], ids=repr)
def test_derived_seeds_refuse_a_seed_that_is_no_integer(seed) -> None:
    from ultimata.envs.core.rng import derived_seed

    with pytest.raises(ConfigError, match="seed must be an integer"):
        derived_seed(seed, 0)


def test_the_single_agent_env_refuses_seed_true() -> None:
    """gymnasium's own seeding refuses 1.5 and "1" but takes True as 1; the game's seed refuses it."""
    env = envs.single_agent("ultimatum_cards_v3", opponents=["random"])
    with pytest.raises(ConfigError, match="seed"):
        env.reset(seed=True)


def test_integer_seeds_of_every_kind_still_work() -> None:
    for seed in (None, 0, 7, np.int64(7), np.uint32(7), 2**64 + 3):
        Rng(seed).below(10)
    assert Rng(np.int64(7)).below(10**9) == Rng(7).below(10**9)
