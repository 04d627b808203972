"""`pool.learner_seats` decides how often the learner holds each seat; by default it takes every seat in turn."""

from __future__ import annotations

from collections import Counter

import pytest

from ultimata.envs.core.errors import ConfigError
from ultimata.training.config import load_train_config
from ultimata.training.selfplay_env import SelfPlayEnv


def _seats(env: SelfPlayEnv, episodes: int) -> list[int]:
    seats = []
    for _ in range(episodes):
        _, info = env.reset()
        assert info["seat"] == env.seat and env.seat not in env.opponent_labels
        seats.append(env.seat)
    return seats


def test_by_default_the_learner_takes_every_seat_in_turn():
    env = SelfPlayEnv("ultimade_v2", pool_weights={"random": 1.0}, seed=4, env_index=1)
    assert _seats(env, 6) == [0, 1, 0, 1, 0, 1]


def test_the_learner_holds_the_seats_as_weighted():
    only = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"random": 1.0}, seed=4, learner_seats=[0, 0, 1, 0])
    assert set(_seats(only, 20)) == {2}
    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"random": 1.0}, seed=4, learner_seats=[3, 1, 0, 0])
    counts = Counter(_seats(env, 400))
    assert set(counts) == {0, 1} and 0.68 < counts[0] / 400 < 0.82



@pytest.mark.parametrize("weights, message", [
    ("[1, 1]", "gives 2 weights; ultimatum_cards_v3 with these rules has 4 seats, so give 4"),
    ("[1, -1, 1, 1]", "non-negative weights with a positive sum"),
    ("[0, 0, 0, 0]", "non-negative weights with a positive sum"),
])
def test_bad_weights_are_refused_naming_what_is_allowed(tmp_path, weights, message):
    path = tmp_path / "cfg.yaml"
    path.write_text(f"pool: {{learner_seats: {weights}}}\n")
    with pytest.raises(ConfigError, match=message):
        load_train_config("ultimatum_cards_v3", path)


@pytest.mark.parametrize("bad", [[1, 1, 1], [0, 0], [2, -1]])
def test_the_env_refuses_bad_weights_too(bad):
    with pytest.raises(ConfigError, match=r"ultimade_v2 needs 2 non-negative weights with a positive sum"):
        SelfPlayEnv("ultimade_v2", learner_seats=bad)
