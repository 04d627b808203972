"""PettingZoo's own checks, unchanged, on every registered env."""

import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import ultimata.envs as envs
from ultimata.envs import GAMES


@pytest.mark.parametrize("name", list(GAMES))
def test_api(name: str) -> None:
    api_test(envs.make(name), num_cycles=1000)


@pytest.mark.parametrize("name", list(GAMES))
def test_seed(name: str) -> None:
    seed_test(lambda **kw: envs.make(name, **kw), num_cycles=500)


@pytest.mark.parametrize("name", list(GAMES))
def test_render(name: str) -> None:
    render_test(lambda **kw: envs.make(name, **kw))


@pytest.mark.parametrize("name", list(GAMES))
def test_registered_with_pettingzoo(name: str) -> None:
    """PettingZoo 1.27 has a registry and finds every game in it; 1.25 and 1.26 have none, and importing
    ultimata.envs must not need one there (CI runs this file on the oldest PettingZoo we declare)."""
    if not hasattr(pettingzoo, "make"):
        assert not hasattr(pettingzoo, "register") and envs.make(name).metadata["name"] == name
        return
    env = pettingzoo.make("aec", envs.pettingzoo_id(name))
    env.reset(seed=0)
    assert env.metadata["name"] == name
    assert env.possible_agents[0] == "player_0"


@pytest.mark.parametrize("name", list(GAMES))
def test_unwrapped_reaches_the_engine(name: str) -> None:
    env = envs.make(name)
    env.reset(seed=3)
    saved = env.unwrapped.state_dict()
    action = int(env.last()[0]["action_mask"].nonzero()[0][0])
    assert isinstance(env.unwrapped.action_to_string(action), str)
    env.step(action)
    env.unwrapped.load_state_dict(saved)
    assert env.unwrapped.state_dict() == saved
