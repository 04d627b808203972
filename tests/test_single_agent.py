"""`envs.single_agent`: one seat of any game as a gymnasium env against agent specs (issue 32)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import ultimata.envs as envs
from ultimata.envs.core.errors import ConfigError, IllegalActionError

CARDS = envs.env_name("ultimatum_cards")


@pytest.mark.parametrize("name", sorted(envs.GAMES))
def test_every_game_passes_gymnasiums_check_env(name):
    env = envs.single_agent(name, ["heuristic"])
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*Box observation space m.*infinity")  # unbounded features
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=3)
    assert env.observation_space.contains(obs) and env.action_masks().any()
    assert env.action_masks().dtype == bool and len(env.action_masks()) == env.action_space.n


def test_opponents_sit_in_turn_order_after_the_learner_and_the_seat_can_be_fixed():
    env = envs.single_agent(CARDS, ["heuristic", "random", "mcts:sims=2"], seat=2, num_players=4)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        assert info["seat"] == 2
        assert env.opponent_labels == {3: "heuristic", 0: "random", 1: "mcts:sims=2"}
    rotating = envs.single_agent(CARDS, "random", num_players=3)
    seats = {rotating.reset(seed=s)[1]["seat"] for s in range(6)} | {rotating.reset()[1]["seat"] for _ in range(6)}
    assert seats == {0, 1, 2}


def test_an_episode_ends_with_the_seats_result():
    env = envs.single_agent(CARDS, "heuristic", seat=0)
    env.reset(seed=1)
    rng, done, steps = np.random.default_rng(0), False, 0
    while not done:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        done, steps = terminated or truncated, steps + 1
    assert terminated and "illegal" not in info and info["opponents"] == {1: "heuristic", 2: "heuristic",
                                                                           3: "heuristic"}
    assert reward == env.state.returns()[0] and info["win"] in (0.0, 0.25, 1 / 3, 0.5, 1.0)


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = envs.single_agent(CARDS, "random")
    env.reset(seed=0)
    masked = int(np.flatnonzero(~env.action_masks())[0])
    before = env.state.state_dict()
    obs, reward, terminated, truncated, info = env.step(masked)
    assert (reward, terminated, truncated, info["illegal"], info["win"]) == (-1.0, True, False, True, 0.0)
    assert env.state.state_dict() == before
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_an_action_as_sb3_predict_returns_it_is_taken_and_a_float_is_illegal():
    env = envs.single_agent(CARDS, "random", seat=0)
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_masks())
    decisions = env.state.decisions
    *_, info = env.step(np.array(legal[0]))  # predict() gives a 0-d array for one observation
    assert "illegal" not in info and env.state.decisions > decisions
    env.reset(seed=0)
    *_, info = env.step(float(np.flatnonzero(env.action_masks())[0]))
    assert info["illegal"]


def test_an_opponent_that_returns_an_illegal_action_is_named():
    env = envs.single_agent(CARDS, "tests.agents.own_agents:Cheater", seat=0)
    with pytest.raises(IllegalActionError, match=r"opponent 'tests.agents.own_agents:Cheater' at seat \d"):
        for episode in range(5):
            env.reset(seed=episode)
            done = False
            while not done:
                _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
                done = terminated or truncated


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"opponents": ["random", "random"]}, "one agent spec or 3 .one per other seat"),
        ({"opponents": []}, "one agent spec or 3"),
        ({"opponents": "alphazero"}, "unknown agent spec 'alphazero'"),
        ({"seat": 4}, "seat must be 0..3"),
        ({"seat": "0"}, "seat must be 0..3"),
        ({"num_players": 9}, "num_players"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs, says):
    with pytest.raises(ConfigError, match=says):
        envs.single_agent(CARDS, **kwargs)


def _train(algo, env, steps: int):
    return algo("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=1, seed=0, device="cpu",
                policy_kwargs={"net_arch": [32]}).learn(steps)


def test_plain_ppo_trains_2k_steps():
    from stable_baselines3 import PPO

    env = envs.single_agent(CARDS, "heuristic")
    model = _train(PPO, env, 2048)
    assert model.num_timesteps >= 2048 and len(model.ep_info_buffer) > 0
    assert all(-1.0 <= ep["r"] <= 1.0 for ep in model.ep_info_buffer)


def test_maskable_ppo_trains_2k_steps_and_never_plays_an_illegal_move():
    from sb3_contrib import MaskablePPO

    env = envs.single_agent(CARDS, "heuristic")
    illegal = []
    step = env.step

    def counted(action):
        out = step(action)
        illegal.append(out[4].get("illegal", False))
        return out

    env.step = counted
    model = _train(MaskablePPO, env, 2048)
    assert model.num_timesteps >= 2048 and len(illegal) >= 2048 and not any(illegal)
