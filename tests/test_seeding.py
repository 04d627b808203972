"""Seeding as PettingZoo and gymnasium users expect it (issue 41): a seed starts a reproducible stream,
plain resets continue it, copies made without a seed deal different games, and an opponent loaded from a
file is loaded once."""

import gymnasium
import numpy as np
import pytest

import ultimata.envs as envs
from ultimata.agents import policy_agent
from ultimata.envs import ConfigError

CARDS = "ultimatum_cards_v3"


def _first_observations(env, resets: int, seed: int) -> list[np.ndarray]:
    env.reset(seed=seed)
    seen = [env.observe(env.agent_selection)["observation"]]
    for _ in range(resets):
        env.reset()
        seen.append(env.observe(env.agent_selection)["observation"])
    return seen


def test_the_aec_env_continues_a_seeded_stream_on_plain_resets():
    a = _first_observations(envs.make(CARDS), 5, seed=11)
    b = _first_observations(envs.make(CARDS), 5, seed=11)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert len({x.tobytes() for x in a}) == 6  # each reset dealt a new game
    other = _first_observations(envs.make(CARDS), 5, seed=12)
    assert not all(np.array_equal(x, y) for x, y in zip(a, other))


def test_the_aec_env_refuses_a_seed_that_is_not_a_whole_number():
    env = envs.make_raw(CARDS)
    for bad in (True, 1.5, "1", -3):
        with pytest.raises(ConfigError, match="seed"):
            env.reset(seed=bad)


def test_single_agent_continues_a_seeded_stream_and_copies_without_a_seed_differ():
    def firsts(env, seed=None):
        obs, info = env.reset(seed=seed)
        out = [(obs.tobytes(), info["seat"])]
        for _ in range(3):
            obs, info = env.reset()
            out.append((obs.tobytes(), info["seat"]))
        return out

    assert firsts(envs.single_agent(CARDS, "random"), 7) == firsts(envs.single_agent(CARDS, "random"), 7)
    unseeded = [firsts(envs.single_agent(CARDS, "random")) for _ in range(4)]
    assert len({tuple(run) for run in unseeded}) == 4  # four copies, four streams


def test_a_vector_env_that_resets_on_its_next_step_never_asks_with_an_empty_mask():
    vec = gymnasium.vector.SyncVectorEnv([lambda: envs.single_agent(CARDS, "random") for _ in range(3)],
                                         autoreset_mode=gymnasium.vector.AutoresetMode.NEXT_STEP)
    vec.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = np.stack(vec.call("action_masks"))
        assert masks.any(axis=1).all(), "a copy offered no legal action"
        actions = [int(rng.choice(np.flatnonzero(m))) for m in masks]
        _, _, terminated, truncated, _ = vec.step(actions)
        ended += int(np.sum(terminated | truncated))
    assert ended > 3  # the autoreset path was taken


def test_a_checkpoint_opponent_is_loaded_once_not_on_every_reset(monkeypatch):
    loads = []
    original = policy_agent.PolicyAgent.from_checkpoint.__func__

    def counting(cls, *args, **kwargs):
        loads.append(args[0])
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(policy_agent.PolicyAgent, "from_checkpoint", classmethod(counting))
    env = envs.single_agent(CARDS, "pretrained")
    env.reset(seed=0)
    after_first = len(loads)
    for _ in range(6):
        env.reset()
    assert len(loads) == after_first <= 2  # the spec check at construction, and the tables' one load
