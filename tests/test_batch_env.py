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
        obs, mask, seat, rewards, terminated, truncated, info = env.step(actions)
        assert not (terminated & truncated).any()
        out.append((actions, obs, mask, seat, rewards, terminated | truncated, info))
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


def test_a_game_cut_at_max_decisions_is_truncated_not_terminated_with_no_result() -> None:
    env = batch("ultimatum_world_v4", 3, seed=1, max_decisions=40)
    history = _play(env, 39)
    actions = _random_actions(history[-1][2], np.random.default_rng(5))
    *_, rewards, terminated, truncated, info = env.step(actions)
    assert truncated.all() and not terminated.any() and info["truncated"].all()
    assert not info["returns"].any() and not rewards.any()
    assert (info["length"] == 40).all()
    assert all(not s.is_terminal() and s.decisions == 40 for s in info["final_state"].values())
    assert not any(step[5].any() for step in history[1:])  # nothing ended before the cap


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
        obs, mask, seat, rewards, terminated, truncated, _ = env.step(mine)
        done = terminated | truncated
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


# -- the ecosystem's conventions (issue 53): python backend, then the toy array engine ---------------

def test_the_python_backend_declares_same_step_autoreset_and_gymnasiums_vector_attributes() -> None:
    from gymnasium.vector import AutoresetMode
    from gymnasium.vector.utils import batch_space

    env = batch("ultimatum_cards_v3", 5, seed=0)
    with pytest.raises(Exception, match="reset"):
        env.step(np.zeros(5, np.int64))  # nothing dealt yet
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and env.num_envs == 5
    assert env.observation_space == batch_space(env.single_observation_space, 5)
    assert env.action_space == batch_space(env.single_action_space, 5)
    obs, mask, _ = env.reset()
    assert obs in env.observation_space and env.action_space.sample().shape == (5,)
    env.close()
    with pytest.raises(Exception, match="closed"):
        env.step(mask.argmax(axis=1))
    obs, mask, _ = env.reset()  # a closed batch deals again on reset
    assert env.step(mask.argmax(axis=1))[0].shape == obs.shape


def test_the_step_that_ends_a_game_returns_every_seats_final_view_and_info() -> None:
    env = batch("ultimatum_cards_v3", 6, seed=2, max_decisions=60)
    rng = np.random.default_rng(1)
    _, mask, _ = env.reset()
    seen = {"terminated": 0, "truncated": 0}
    for _ in range(400):
        _, mask, _, rewards, terminated, truncated, info = env.step(_random_actions(mask, rng))
        done = terminated | truncated
        if not done.any():
            assert "final_obs" not in info and "final_info" not in info
            continue
        np.testing.assert_array_equal(info["_final_obs"], done)
        np.testing.assert_array_equal(info["_final_info"], done)
        for row in range(6):
            if not done[row]:
                assert info["final_obs"][row] is None
                continue
            state = info["final_state"][row]
            assert state.is_terminal() == bool(terminated[row])
            expected = np.stack([state.observation(p) for p in range(env.num_players)])
            np.testing.assert_array_equal(info["final_obs"][row], expected)
            np.testing.assert_allclose(info["final_info"]["returns"][row], state.returns() if terminated[row] else 0)
            assert info["final_info"]["length"][row] == state.decisions
            seen["terminated" if terminated[row] else "truncated"] += 1
    assert seen["terminated"] and seen["truncated"], seen


def test_apply_keeps_its_contract_for_the_trainers_tables() -> None:
    env = batch("ultimatum_cards_v3", 4, seed=3)
    _, mask, _ = env.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        rewards, done, info = env.apply(_random_actions(env.observe()[1], rng))
        assert rewards.shape == (4, 4) and done.shape == (4,)
        assert {"returns", "truncated", "length", "final_state"} <= set(info) and "final_obs" not in info
        assert set(info["final_state"]) == set(np.flatnonzero(done).tolist())
        ended += int(done.sum())
    assert ended


def test_an_illegal_action_can_end_its_game_alone_with_minus_one_for_the_offender() -> None:
    env = batch("ultimatum_cards_v3", 3, seed=0, on_illegal="terminate")
    obs, mask, seat = env.reset()
    before = [s.decisions for s in env.states]
    actions = mask.argmax(axis=1)
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    _, _, _, rewards, terminated, truncated, info = env.step(actions)
    expected = np.zeros(env.num_players)
    expected[seat[1]] = -1.0
    np.testing.assert_array_equal(rewards[1], expected)
    np.testing.assert_array_equal(info["returns"][1], expected)
    assert terminated.tolist() == [False, True, False] and not truncated.any()
    assert info["illegal"].tolist() == [False, True, False]
    assert info["final_state"][1].decisions == before[1]  # the refused action was not applied
    assert env.episodes.tolist() == [1, 2, 1]  # only that row was dealt again
    assert [env.states[r].decisions for r in (0, 2)] == [before[0] + 1, before[2] + 1]  # the others moved
    with pytest.raises(Exception, match="on_illegal"):
        batch("ultimatum_cards_v3", 3, on_illegal="ignore")


def test_without_a_seed_each_batch_draws_its_own_and_it_replays_the_run() -> None:
    first, second = batch("ultimatum_cards_v3", 3), batch("ultimatum_cards_v3", 3)
    assert first.seed != second.seed
    assert not np.array_equal(first.reset()[0], second.reset()[0])
    unseeded = batch("ultimatum_cards_v3", 3)
    played = _play(unseeded, 40)
    for a, b in zip(played, _play(batch("ultimatum_cards_v3", 3, seed=unseeded.seed), 40)):
        for x, y in zip(a, b):
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(x, y)


def _toy(num_games: int, **kwargs: Any) -> Any:
    from tests.toy_array_game import pile_engine
    from ultimata.envs.array_batch import ArrayBatchEnv

    max_decisions = kwargs.pop("max_decisions", 100)
    return ArrayBatchEnv(pile_engine(max_decisions), num_games, **kwargs)


def test_the_array_backend_has_the_same_vector_attributes_and_autoreset_mode() -> None:
    import torch
    from gymnasium.vector import AutoresetMode

    env = _toy(4, seed=0)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP and env.num_envs == 4
    assert env.observation_space.shape == (4, 2) and env.action_space.shape == (4,)
    obs, mask, seat = env.reset()
    assert isinstance(obs, torch.Tensor) and obs.numpy() in env.observation_space
    env.close()
    with pytest.raises(Exception, match="closed"):
        env.step(torch.zeros(4, dtype=torch.int64))


def test_the_array_backend_splits_terminated_from_truncated_and_returns_final_views() -> None:
    import torch

    env = _toy(64, seed=1, max_decisions=3)
    obs, mask, seat = env.reset()
    piles = obs[:, 0].clone()
    # everyone takes one: a pile of 3 ends on the third move (terminated), larger ones are cut (truncated)
    for move in range(3):
        obs, mask, seat, rewards, terminated, truncated, info = env.step(torch.zeros(64, dtype=torch.int64))
        if move < 2:
            assert not (terminated | truncated).any() and "final_obs" not in info
    assert terminated.tolist() == (piles == 3).tolist() and truncated.tolist() == (piles > 3).tolist()
    assert info["truncated"].tolist() == truncated.tolist() and (info["length"] == 3).all()
    final = info["final_obs"]
    assert final.shape == (64, 2, 2) and info["_final_obs"].all() and info["_final_info"].all()
    np.testing.assert_array_equal(final[:, 0, 0].numpy(), (piles - 3).numpy())  # every seat sees the pile
    np.testing.assert_array_equal(final[:, 1, 0].numpy(), (piles - 3).numpy())
    # the third mover is seat 0: it won where the pile ran out
    won = (piles == 3).float()
    np.testing.assert_array_equal(rewards[:, 0].numpy(), won.numpy())
    np.testing.assert_array_equal(info["final_info"]["returns"][:, 1].numpy(), -won.numpy())
    assert (env.episodes == 2).all() and (seat == 0).all()  # every row already shows its next game


def test_the_array_backend_ends_one_game_on_an_illegal_action_or_refuses_the_step() -> None:
    import torch

    strict = _toy(3, seed=2)
    strict.reset()
    before = {k: v.clone() for k, v in strict.state.items()}
    with pytest.raises(IllegalActionError, match="row 1"):
        strict.step(torch.tensor([0, 2, 0]))
    assert all(torch.equal(before[k], strict.state[k]) for k in before)
    env = _toy(3, seed=2, on_illegal="terminate")
    env.reset()
    _, _, _, rewards, terminated, truncated, info = env.step(torch.tensor([0, 2, 0]))
    assert rewards[1].tolist() == [-1.0, 0.0] and terminated.tolist() == [False, True, False]
    assert info["illegal"].tolist() == [False, True, False] and not truncated.any()
    assert info["final_obs"][1, 0, 0] == before["pile"][1]  # ended where the action was refused
    assert env.episodes.tolist() == [1, 2, 1] and env.state["decisions"].tolist()[::2] == [1, 1]


def test_the_array_backend_draws_a_fresh_seed_and_replays_from_it() -> None:
    first, second = _toy(32), _toy(32)
    assert first.seed != second.seed
    a, b = first.reset()[0], second.reset()[0]
    assert not np.array_equal(a.numpy(), b.numpy())
    again = _toy(32, seed=first.seed, numpy=True)
    np.testing.assert_array_equal(again.reset()[0], a.numpy())
