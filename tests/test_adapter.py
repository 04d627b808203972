"""The AEC adapter's own promises: final rewards reach every seat, truncation, dense shaping,
illegal actions (raised by raw_env, PettingZoo's -1 by env()), off-turn masks are zero."""

import random

import numpy as np
import pytest

import ultimata.envs as envs
from ultimata.envs import IllegalActionError


def play_out(env, seed=0, pick=None):
    """Random masked play to the end; returns each agent's last cumulative reward and the step count."""
    pick = pick or random.Random(seed)
    env.reset(seed=seed)
    final, steps = {}, 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(pick.choice(legal)))
        steps += 1
    return final, steps


def test_every_seat_sees_its_final_reward_whoever_ended_the_game() -> None:
    for seed in range(20):
        env = envs.make("ultimatum_cards_v3")
        final, _ = play_out(env, seed)
        returns = env.unwrapped.state.returns()
        assert final == {f"player_{i}": r for i, r in enumerate(returns)}
        assert abs(sum(final.values())) < 1e-9


def test_off_turn_masks_are_all_zero() -> None:
    env = envs.make("ultimatum_cards_v3")
    env.reset(seed=4)
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_truncation_cap_ends_the_episode() -> None:
    env = envs.make("ultimatum_cards_v3", mode="match", max_decisions=10)
    final, steps = play_out(env, 1)
    assert steps == 10 and set(final) == set(env.possible_agents)
    assert all(v == 0 for v in final.values())


def test_dense_reward_is_zero_sum_and_off_by_default() -> None:
    env = envs.make_raw("ultimatum_cards_v3", dense_reward=True)
    env.reset(seed=2)
    seen_nonzero = False
    while not all(env.terminations.values()):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert abs(sum(env.rewards.values())) < 1e-9
        seen_nonzero |= any(env.rewards.values())
    assert seen_nonzero
    env = envs.make_raw("ultimatum_cards_v3")
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert not any(env.rewards.values()) or all(env.terminations.values())


def test_raw_env_raises_on_an_illegal_action_and_changes_nothing() -> None:
    env = envs.make_raw("ultimatum_cards_v3")
    env.reset(seed=0)
    before = env.state_dict()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="legal actions"):
        env.step(illegal)
    assert env.state_dict() == before


def test_wrapped_env_ends_the_game_with_minus_one_for_an_illegal_action() -> None:
    env = envs.make("ultimatum_cards_v3")
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    env.step(illegal)  # PettingZoo logs "Illegal move made" and ends the game
    assert env.rewards[agent] == -1 and all(env.terminations.values())


def test_wrapped_env_keeps_pettingzoos_order_checks() -> None:
    env = envs.make("ultimatum_cards_v3")
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection


def test_raw_env_pickles_with_its_config() -> None:
    import pickle

    env = envs.make_raw("ultimatum_cards_v3", num_players=5)
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=0)
    assert clone.num_agents == 5


def test_fast_action_space_agrees_with_gymnasiums_discrete() -> None:
    from gymnasium.spaces import Discrete

    from ultimata.envs.core.adapter import ActionSpace

    fast, reference = ActionSpace(7), Discrete(7)
    for x in [-1, 0, 6, 7, 10**12, True, np.int64(3), np.int8(9), 2.0, "1", None, np.array(2)]:
        assert fast.contains(x) == reference.contains(x), x
