"""The batched self-play sampler: every learner seat is a trajectory of its own, rewards reach their own
seat whoever ends the game, only the learner's decisions are samples, and batching changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv

from ultimata.agents.random_agent import RandomAgent
from ultimata.envs.core.config import GameConfig
from ultimata.envs.core.engine import Game, State
from ultimata.envs.core.fields import Fields, Int
from ultimata.envs.core.game_info import GameInfo
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng
from ultimata.training.config import load_train_config
from ultimata.training.model import new_model
from ultimata.training.pool import OpponentPool
from ultimata.training.sampler import BatchedSampler, sample_masked
from ultimata.training.trainer import SpacesEnv

CARDS = "ultimatum_cards_v3"


class RaceToFour(Game):
    """Two seats add 1 or 2 to a running total in turn until it reaches 4 or more: exactly 4 is a draw,
    5 is a win for whoever moved last. Draws, wins by the mover and losses by the other seat's move
    all happen within three decisions."""

    info = GameInfo(name="race_to_four_v0", title="", config=GameConfig, state=lambda game, rng: RaceState(game, rng),
                    players=2, actions=2, observation_size=3, dense_reward=True)


class RaceState(State):
    FIELDS = Fields(total=Int(0, 5), turn=Int(0, 1))

    def __init__(self, game: Game, rng: Rng) -> None:
        super().__init__(game, rng)
        self.total, self.turn = 0, 0

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal() else self.turn

    def _legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [0, 1]

    def _apply(self, action: int) -> None:
        self.total += action + 1
        self.turn = 1 - self.turn

    def is_terminal(self) -> bool:
        return self.total >= 4

    def returns(self) -> list[float]:
        if self.total < 5:
            return [0.0, 0.0]
        winner = 1 - self.turn  # the last mover
        return [1.0 if p == winner else -1.0 for p in (0, 1)]

    def potentials(self) -> list[float]:
        return [0.0, 0.0]

    def observation(self, player: int) -> np.ndarray:
        return np.array([self.total, player, self.turn], np.float32)

    def _action_to_string(self, action: int) -> str:
        return f"add {action + 1}"

    def render_text(self, viewer: int | None = None) -> str:
        return f"total {self.total}"


def model_for(game: Game, net: list[int] | None = None):
    cfg = load_train_config(CARDS, overrides={"ppo": {"net_arch": net or [16]}})
    return new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game, n_steps=64)


def race_sampler(weights: dict[str, float], games: int = 4, **kwargs) -> BatchedSampler:
    game = RaceToFour(GameConfig())
    pool = OpponentPool(game, weights, agents={"random": RandomAgent(0)})
    return BatchedSampler(game, model_for(game).policy, pool, games=games, seed=3, **kwargs)


def test_a_seat_gets_its_own_result_even_when_the_other_seat_ends_the_game():
    sampler = race_sampler({"random": 1.0}, games=8)
    rollout = sampler.collect(400)
    episodes = sampler.take_episodes()
    by_other = [e for e in episodes if e.last_mover != e.seat]
    assert by_other and any(e.result == -1.0 for e in by_other), "the other seat's winning move is a loss here"
    assert any(e.result == 1.0 for e in episodes if e.last_mover == e.seat)
    for e in episodes:
        assert e.reward == e.result, "no shaping: a seat's rewards sum to its own final return"
    assert set(np.unique(rollout.rewards)) <= {-1.0, 0.0, 1.0}


def test_a_draw_credits_nothing_and_half_a_win_to_each_seat():
    sampler = race_sampler({"mirror": 1.0}, games=8)
    sampler.collect(300)
    draws = [e for e in sampler.take_episodes() if e.result == 0.0]
    assert draws and all(e.reward == 0.0 and e.win == 0.5 for e in draws)


def test_only_the_learners_seats_are_samples():
    one_seat = race_sampler({"random": 1.0}, learner_seats=[1, 0])  # the learner always holds seat 0
    rollout = one_seat.collect(200)
    assert (rollout.obs[:, 1] == 0).all(), "every sample is seat 0's own view"
    every_seat = race_sampler({"mirror": 1.0})
    rollout = every_seat.collect(200)
    assert set(rollout.obs[:, 1]) == {0.0, 1.0}
    assert every_seat.decisions >= len(rollout), "with mirror everywhere, every decision is a sample"


def test_gae_runs_backward_over_each_seats_own_transitions():
    sampler = race_sampler({"mirror": 1.0}, games=1, gamma=0.9, gae_lambda=0.8)
    for _ in range(3):
        sampler.tick()  # one whole game: three decisions at most
    finished = list(sampler.finished)
    rollout = sampler._rollout()
    for trajectory_rows in _rows_by_trajectory(finished):
        values, rewards = rollout.values[trajectory_rows], rollout.rewards[trajectory_rows]
        expected, running = [], 0.0
        for i in reversed(range(len(trajectory_rows))):
            next_value = values[i + 1] if i + 1 < len(trajectory_rows) else 0.0
            running = rewards[i] + 0.9 * next_value - values[i] + 0.9 * 0.8 * running
            expected.append(running)
        assert np.allclose(rollout.advantages[trajectory_rows], expected[::-1], atol=1e-5)
        assert np.allclose(rollout.returns[trajectory_rows], rollout.advantages[trajectory_rows] + values)


def test_a_game_cut_at_max_decisions_bootstraps_from_the_value_where_it_stopped():
    """Cut is not lost: the seat's last advantage counts the critic's value of the cut position, as SB3
    does for a truncated episode (a real end counts nothing after it)."""
    game = RaceToFour(GameConfig(max_decisions=1))
    pool = OpponentPool(game, {"mirror": 1.0}, agents={"random": RandomAgent(0)})
    sampler = BatchedSampler(game, model_for(game).policy, pool, games=1, seed=3, gamma=0.9, gae_lambda=0.8)
    sampler.tick()  # one decision: the game is cut before seat 1 moves
    (trajectory,) = sampler.finished
    (cut,) = trajectory.closed
    assert cut.done and cut.next_value != 0.0, "the cut position's value is kept to bootstrap from"
    rollout = sampler._rollout()
    assert np.allclose(rollout.advantages, [cut.reward + 0.9 * cut.next_value - cut.value], atol=1e-6)


def _rows_by_trajectory(finished) -> list[list[int]]:
    rows, start = [], 0
    for trajectory in finished:
        count = trajectory.decisions
        rows.append(list(range(start, start + count)))
        start += count
    return rows


def test_no_illegal_action_is_ever_sampled_by_the_learner_or_a_network_opponent(tmp_path):
    from ultimata.agents.checkpoint import CheckpointMeta, save_checkpoint

    game = game_class(CARDS).from_config({})
    model = model_for(game)
    snapshot = save_checkpoint(model, tmp_path / "snap.zip", CheckpointMeta.for_game(game, 0))
    pool = OpponentPool(game, {"snapshots": 0.4, "mirror": 0.3, "heuristic": 0.2, "random": 0.1})
    pool.add_snapshot(str(snapshot))
    sampler = BatchedSampler(game, model.policy, pool, games=16, seed=1)
    for _ in range(3):
        rollout = sampler.collect(256)  # a network opponent's illegal move would raise in apply()
        assert rollout.masks[np.arange(len(rollout)), rollout.actions].all()
    assert sampler.tables._networks[str(snapshot)] is not None, "the snapshot was played as a batched network opponent"
    assert sampler.tables._networks["heuristic"] is None


def test_sampling_from_masked_logits_never_picks_a_masked_action_even_at_the_edges():
    logits = np.array([[0.0, 50.0, 0.0, -50.0], [1.0, 1.0, 1.0, 1.0]])
    masks = np.array([[1, 0, 1, 1], [0, 0, 0, 1]], np.int8)
    for u in (0.0, 1e-12, 0.5, 1.0 - 1e-12, 1.0):
        actions, log_probs = sample_masked(logits, masks, np.array([u, u]))
        assert masks[[0, 1], actions].all()
        assert log_probs[1] == pytest.approx(0.0)


def _transitions_by_slot(sampler: BatchedSampler) -> dict[int, list[tuple]]:
    out: dict[int, list[tuple]] = {}
    trajectories = sampler.finished + [t for row in sampler.trajectories for t in row.values()]
    for t in trajectories:
        rows = [(t.seat, tuple(x.obs), x.action, round(x.reward, 6), x.done) for x in t.closed]
        if t.open is not None:
            rows.append((t.seat, tuple(t.open.obs), t.open.action, None, None))
        out.setdefault(t.slot, []).extend(rows)
    return out


def test_two_games_batched_play_as_each_game_alone():
    game = game_class(CARDS).from_config({})
    policy = model_for(game, [32]).policy
    weights = {"mirror": 0.5, "heuristic": 0.3, "random": 0.2}

    def sampler(slots):
        return BatchedSampler(game, policy, OpponentPool(game, weights), seed=11, slots=slots)

    together = sampler([0, 1])
    alone = [sampler([0]), sampler([1])]
    for _ in range(150):  # several games per slot
        together.tick()
        for s in alone:
            s.tick()
    batched = _transitions_by_slot(together)
    for index, single in enumerate(alone):
        assert batched[index] == _transitions_by_slot(single)[index]
        assert len(batched[index]) > 20
