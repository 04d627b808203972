"""`envs.batch(..., backend="array")`: the array backend's errors and seeding, which every array engine shares
(the games' own differential tests check their rules)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from ultimata.envs import batch
from ultimata.envs.core.errors import ConfigError, IllegalActionError
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng

ENV = "ultimade_v2"


def test_a_game_without_an_array_engine_is_one_error_naming_those_that_have_one():
    with pytest.raises(ConfigError) as err:
        batch("ultra_war_v5", 4, backend="array")
    assert "ultra_war_v5 has no array engine" in str(err.value)
    assert ENV in str(err.value) and "backend='python'" in str(err.value)


def test_unknown_backend_and_device_are_refused():
    with pytest.raises(ConfigError, match="backend must be 'python' or 'array'"):
        batch(ENV, 2, backend="jax")
    with pytest.raises(ConfigError, match="device must be a torch device"):
        batch(ENV, 2, backend="array", device="abacus")
    with pytest.raises(ConfigError, match="apply to backend='array' only"):
        batch(ENV, 2, numpy=True)


def test_an_illegal_action_names_its_row_and_moves_no_game():
    env = batch(ENV, 3, backend="array")
    _, mask, _ = env.reset()
    before = {k: v.clone() for k, v in env.state.items()}
    actions = mask.argmax(1)
    illegal = int((mask[1] == 0).nonzero()[0, 0])
    actions[1] = illegal
    with pytest.raises(IllegalActionError, match=rf"row 1: action {illegal} is not legal now; legal actions: \["):
        env.step(actions)
    for name, value in env.state.items():
        assert torch.equal(value, before[name]), name
    with pytest.raises(IllegalActionError, match="actions must be 3 integers"):
        env.step(torch.zeros(3))
    with pytest.raises(IllegalActionError, match="row 0"):
        env.step(torch.tensor([500, 0, 0]))
    env.step(mask.argmax(1))  # the legal ones still apply afterwards
    assert bool((env.state["decisions"] == 1).all())


def test_bad_sizes_seeds_ids_and_calls_before_reset_are_clear_errors():
    with pytest.raises(ConfigError, match="num_games must be a whole number"):
        batch(ENV, 0, backend="array")
    with pytest.raises(ConfigError, match="ids must be 2 distinct whole numbers"):
        batch(ENV, 2, backend="array", ids=[1, 1])
    with pytest.raises(ConfigError, match="seed must be a whole number"):
        batch(ENV, 2, backend="array", seed=-1)
    env = batch(ENV, 2, backend="array")
    with pytest.raises(ConfigError, match=r"call reset\(\)"):
        env.step([0, 0])
    env.reset()
    with pytest.raises(ConfigError, match="rows must be row numbers 0..1"):
        env.observe([2])
    with pytest.raises(ConfigError, match="load_states takes 2 states"):
        env.load_states([])


def _rollout(env, steps: int) -> list[torch.Tensor]:
    """Each step's observation and seat to move (a seat-relative view alone does not tell who received the
    pull), the actions picked from the mask alone (the first legal action)."""
    obs, mask, seat = env.reset()
    seen = [torch.cat([obs, seat[:, None]], dim=1)]
    for _ in range(steps):
        obs, mask, seat, *_ = env.step(mask.argmax(1))
        seen.append(torch.cat([obs, seat[:, None]], dim=1))
    return seen


def test_ids_and_seed_fix_each_rows_games():
    rules = {"first_receiver": "random", "max_cycles": 1}
    wide = _rollout(batch(ENV, 6, backend="array", seed=4, **rules), 40)
    split = _rollout(batch(ENV, 3, backend="array", seed=4, ids=[1, 3, 5], **rules), 40)
    for a, b in zip(wide, split):
        assert torch.equal(a[[1, 3, 5]], b)
    other_seed = _rollout(batch(ENV, 6, backend="array", seed=5, **rules), 40)
    assert any(not torch.equal(a, b) for a, b in zip(wide, other_seed))
    env = batch(ENV, 6, backend="array", seed=4, **rules)
    _rollout(env, 40)
    assert int(env.episodes.min()) >= 2  # without a seed, reset deals each row its next game
    env.reset(seed=4)
    assert bool((env.episodes == 1).all())
    assert torch.equal(torch.cat([env.observe()[0], env.seats()[:, None]], dim=1), wide[0])


def test_numpy_output_and_moving_positions_between_backends():
    env = batch(ENV, 2, backend="array", numpy=True)
    obs, mask, seat = env.reset()
    assert isinstance(obs, np.ndarray) and mask.dtype == np.int8 and isinstance(seat, np.ndarray)
    obs, mask, seat, rewards, terminated, truncated, info = env.step(mask.argmax(1))
    assert isinstance(rewards, np.ndarray) and isinstance(terminated, np.ndarray)
    assert isinstance(info["returns"], np.ndarray)
    game = game_class(ENV).from_config({})
    state = game.new_initial_state(Rng(3))
    for _ in range(12):
        state.apply(state.legal_actions()[-1])
    env.load_states([state, game.new_initial_state(Rng(4))])
    back = env.states()[0]
    assert back.state_dict()["state"] | {"last_event": ""} == state.state_dict()["state"] | {"last_event": ""}
    obs, mask, seat = env.observe()
    assert np.array_equal(obs[0], state.observation(state.current_player))
    assert np.array_equal(mask[0], state.legal_action_mask())
    with pytest.raises(ConfigError, match="row 0 is not a ultimade_v2 state under this env's rule config"):
        env.load_states([game_class(ENV).from_config({"run_length": 2}).new_initial_state(Rng(0)), state])
