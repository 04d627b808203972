"""The opponent pool draws each seat's kind with the configured weights, snapshots included."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from ultimata.envs import game_class
from ultimata.training.pool import OpponentPool
from ultimata.training.selfplay_env import SelfPlayEnv


@pytest.fixture
def game():
    return game_class("ultimatum_cards_v3").from_config({})


def test_snapshot_weight_goes_to_the_others_until_a_snapshot_exists(game):
    pool = OpponentPool(game, {"snapshots": 0.5, "heuristic": 0.3, "random": 0.2})
    assert pool.probabilities() == pytest.approx({"heuristic": 0.6, "random": 0.4})


def test_snapshot_weight_is_split_over_the_kept_snapshots(game):
    pool = OpponentPool(game, {"snapshots": 0.6, "random": 0.4}, keep=3)
    for i in range(5):
        pool.add_snapshot(f"run/step_{i}.zip")
    assert pool.snapshots == ["run/step_2.zip", "run/step_3.zip", "run/step_4.zip"]
    assert pool.probabilities() == pytest.approx(
        {"run/step_2.zip": 0.2, "run/step_3.zip": 0.2, "run/step_4.zip": 0.2, "random": 0.4}
    )


def test_sampling_follows_the_weights(game):
    pool = OpponentPool(game, {"snapshots": 0.5, "heuristic": 0.3, "random": 0.2})
    pool.add_snapshot("a.zip")
    pool.add_snapshot("b.zip")
    rng = np.random.default_rng(0)
    counts = Counter(pool.sample(rng) for _ in range(8000))
    expected = {"a.zip": 0.25, "b.zip": 0.25, "heuristic": 0.3, "random": 0.2}
    for label, p in expected.items():
        assert counts[label] / 8000 == pytest.approx(p, abs=0.02)


def test_each_opponent_seat_draws_its_own_kind():
    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"heuristic": 0.5, "random": 0.5}, seed=1)
    mixed = 0
    for _ in range(40):
        env.reset()
        labels = set(env.opponent_labels.values())
        assert env.seat not in env.opponent_labels and len(env.opponent_labels) == 3
        mixed += len(labels) > 1
    assert mixed > 10


def test_an_empty_pool_is_refused(game):
    pool = OpponentPool(game, {"snapshots": 1.0})
    with pytest.raises(ValueError, match="opponent pool is empty"):
        pool.probabilities()
