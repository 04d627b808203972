"""The public batched API (`ultimata.envs.batch`): every row is the same game an AEC env plays from the
row's seed, finished games restart by themselves, and nothing depends on how many rows run beside it."""

from typing import Any

import numpy as np
import pytest

from ultimata.envs import GAMES, IllegalActionError, batch, make_raw
from ultimata.envs.batch import BatchEnv


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(mask.shape) * mask).argmax(axis=1)


def _play(env: BatchEnv, steps: int, seed: int = 0) -> list[tuple[Any, ...]]:
    """`steps` random steps; every step's outputs (copies)."""
    rng = np.random.default_rng(seed)
    obs, mask, seat = env.reset()
    out = [(obs, mask, seat)]
    for _ in range(steps):
        actions = _random_actions(mask, rng)
        obs, mask, seat, rewards, done, info = env.step(actions)
        out.append((actions, obs, mask, seat, rewards, done, info))
    return out


class AloneGame:
    """One row's games replayed through the raw AEC env, dealt from the row's seeds."""

    def __init__(self, name: str, env: BatchEnv, row: int) -> None:
        self.aec, self.env, self.row, self.episode = make_raw(name), env, row, 1
        self.aec.reset(seed=env.game_seed(row, 1))

    def check_waiting(self, obs: np.ndarray, mask: np.ndarray, seat: int) -> None:
        agent = self.aec.agent_selection
        assert agent == f"player_{seat}"
        seen = self.aec.observe(agent)
        np.testing.assert_array_equal(seen["observation"], obs)
        np.testing.assert_array_equal(seen["action_mask"], mask)

    def step(self, action: int, rewards: np.ndarray, done: bool) -> None:
        self.aec.step(int(action))
        expected = [self.aec.rewards[a] for a in self.aec.possible_agents]
        np.testing.assert_allclose(rewards, expected, atol=1e-6)
        over = all(self.aec.terminations.values()) or all(self.aec.truncations.values())
        assert over == done
        if over:
            self.episode += 1
            self.aec.reset(seed=self.env.game_seed(self.row, self.episode))


@pytest.mark.parametrize("name", list(GAMES))
def test_every_row_plays_the_game_the_aec_env_plays_from_its_seed(name: str) -> None:
    env = batch(name, 4, seed=3)
    history = _play(env, 300)
    alone = [AloneGame(name, env, row) for row in range(4)]
    obs, mask, seat = history[0]
    for row in range(4):
        alone[row].check_waiting(obs[row], mask[row], seat[row])
    for actions, obs, mask, seat, rewards, done, _ in history[1:]:
        for row in range(4):
            alone[row].step(actions[row], rewards[row], bool(done[row]))
            alone[row].check_waiting(obs[row], mask[row], seat[row])


def test_a_finished_game_restarts_by_itself_and_reports_how_it_ended() -> None:
    env = batch("ultimatum_cards_v3", 8, seed=0)
    finished = 0
    for _, _, mask, _, rewards, done, info in _play(env, 400)[1:]:
        for row in np.flatnonzero(done):
            finished += 1
            state = info["final_state"][row]
            assert state.is_terminal()
            np.testing.assert_allclose(info["returns"][row], state.returns())
            np.testing.assert_allclose(rewards[row], state.returns())  # the last move's reward is the result
            assert info["length"][row] == state.decisions
            assert mask[row].any()  # the row already waits on the next game's first decision
        for row in np.flatnonzero(~done):
            assert not info["returns"][row].any() and row not in info["final_state"]
    assert finished >= 8
    assert env.episodes.sum() == 8 + finished


def test_a_draw_ends_with_equal_results() -> None:
    env = batch("ultimatum_cards_v3", 32, seed=0)
    draws = [info["returns"][row] for *_, done, info in _play(env, 300)[1:] for row in np.flatnonzero(done)
             if not info["truncated"][row] and np.allclose(info["returns"][row], info["returns"][row][0])]
    assert draws, "no drawn game in 300 steps of 32 random card games"
    assert all((d == 0).all() for d in draws)


def test_a_game_cut_at_max_decisions_is_done_and_truncated_with_no_result() -> None:
    env = batch("ultimatum_world_v3", 3, seed=1, max_decisions=40)
    history = _play(env, 40)
    *_, rewards, done, info = history[40]
    assert done.all() and info["truncated"].all()
    assert not info["returns"].any() and not rewards.any()
    assert (info["length"] == 40).all()
    assert all(not s.is_terminal() and s.decisions == 40 for s in info["final_state"].values())
    assert not any(step[5].any() for step in history[1:40])  # nothing ended before the cap


@pytest.mark.parametrize("num_games", [1, 256])
def test_a_game_plays_the_same_alone_as_among_many(num_games: int) -> None:
    reference = _play(batch("conquest_of_the_world_v3", 2, seed=9), 60)
    env = batch("conquest_of_the_world_v3", num_games, seed=9)
    rng = np.random.default_rng(0)
    obs, mask, seat = env.reset()
    np.testing.assert_array_equal(obs[0], reference[0][0][0])
    for actions, ref_obs, ref_mask, ref_seat, ref_rewards, ref_done, _ in reference[1:]:
        mine = _random_actions(mask, rng)
        mine[0] = actions[0]  # row 0 plays row 0's moves; the other rows play whatever they like
        obs, mask, seat, rewards, done, _ = env.step(mine)
        np.testing.assert_array_equal(obs[0], ref_obs[0])
        np.testing.assert_array_equal(mask[0], ref_mask[0])
        assert seat[0] == ref_seat[0] and done[0] == ref_done[0]
        np.testing.assert_array_equal(rewards[0], ref_rewards[0])
    assert obs.shape[0] == mask.shape[0] == num_games


def test_a_seed_fixes_every_game_and_reset_without_one_deals_the_next_games() -> None:
    first = _play(batch("ultimade_v2", 4, seed=5), 30)
    again = _play(batch("ultimade_v2", 4, seed=5), 30)
    for a, b in zip(first, again):
        for x, y in zip(a, b):
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(x, y)
    env = batch("ultimatum_cards_v3", 4, seed=5)  # dealt hands: every game starts differently
    obs1, *_ = env.reset()
    obs2, *_ = env.reset()
    assert (env.episodes == 2).all() and not np.array_equal(obs1, obs2)
    obs3, *_ = env.reset(seed=5)
    np.testing.assert_array_equal(obs3, obs1)


def test_an_illegal_action_names_its_row_and_moves_no_game() -> None:
    env = batch("ultimatum_cards_v3", 3, seed=0)
    obs, mask, seat = env.reset()
    before = [s.state_dict() for s in env.states]
    actions = mask.argmax(axis=1)
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="row 2"):
        env.step(actions)
    with pytest.raises(IllegalActionError, match="3 integers"):
        env.step(actions[:2])
    with pytest.raises(IllegalActionError, match="3 integers"):
        env.step(actions.astype(float))
    assert [s.state_dict() for s in env.states] == before


def test_bad_sizes_and_seeds_are_refused_with_what_is_allowed() -> None:
    from ultimata.envs import ConfigError

    for bad in (0, -1, 2.5, True):
        with pytest.raises(ConfigError, match="num_games"):
            batch("ultimade_v2", bad)
    for bad in (-1, 1.5, True, "1"):
        with pytest.raises(ConfigError, match="seed"):
            batch("ultimade_v2", 2, seed=bad)
    with pytest.raises(ConfigError, match="unknown game"):
        batch("chess_v0", 2)
