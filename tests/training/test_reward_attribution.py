"""PettingZoo issue #1147: the learner gets its own final reward even when an opponent ends the game."""

from __future__ import annotations

import numpy as np

from ultimata.envs.ultimatum_cards.deck import ROUND
from ultimata.training.outcome import win_credit
from ultimata.training.selfplay_env import SelfPlayEnv


class RoundPlayer:
    """Ends the round (and the Quick Play game) at its first chance; otherwise plays the first legal move."""

    def __init__(self) -> None:
        self.ended = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation, action_mask, state=None) -> int:
        if action_mask[ROUND]:
            self.ended += 1
            return ROUND
        return int(np.flatnonzero(action_mask)[0])


def test_learner_gets_its_reward_when_an_opponent_ends_the_game():
    ender = RoundPlayer()
    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"ender": 1.0}, agents={"ender": ender}, seed=11)
    checked = nonzero = 0
    for episode in range(60):
        env.reset(seed=100 + episode)
        while True:
            mask = env.action_masks().copy()
            mask[ROUND] = False  # the learner never ends the game itself
            if not mask.any():
                mask = env.action_masks()
            ended_before = ender.ended
            _, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
            if terminated:
                returns = env.state.returns()
                assert reward == returns[env.seat]
                assert info["win"] == win_credit(returns)[env.seat]
                if ender.ended == ended_before + 1:  # an opponent's Round, inside step(), ended it
                    checked += 1
                    nonzero += reward != 0
                break
            assert reward == 0.0 and not truncated
    assert checked > 0 and nonzero > 0


def test_rewards_sum_to_the_seat_return_and_seats_rotate():
    env = SelfPlayEnv("ultimatum_cards_v3", pool_weights={"random": 1.0}, seed=2)
    rng = np.random.default_rng(0)
    seats = set()
    for _ in range(12):
        env.reset()
        seats.add(env.seat)
        total, done = 0.0, False
        while not done:
            _, reward, terminated, truncated, _ = env.step(rng.choice(np.flatnonzero(env.action_masks())))
            total += reward
            done = terminated or truncated
        assert total == env.state.returns()[env.seat]
    assert seats == {0, 1, 2, 3}
