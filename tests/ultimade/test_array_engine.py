"""ULTIMADE's array engine against its Python rules engine, move for move (envs/core/array/differential.py),
under every rule option, and the array backend's own promises: a row's course does not depend on the rows
beside it, and finished games restart by themselves. The full 1M-decision run is `ultimata differential`."""

from __future__ import annotations

import pytest
import torch

from ultimata.envs import batch
from ultimata.envs.core.array.differential import run_differential
from ultimata.envs.core.registry import game_class
from ultimata.envs.ultimade.array import ArrayEngine
from ultimata.envs.ultimade.phases import PLACE, SELECT

ENV = "ultimade_v2"
OPTIONS = [
    {},
    {"run_through": "team"},
    {"run_through": "any", "run_length": 8},
    {"throw_needs_free_field": False, "run_length": 1},
    {"monster_defense": False},
    {"monster_defense_in_endzone": False, "monster_turn_faces": [2, 3, 4, 5]},
    {"straight_pull": False, "endzone_depth": 1},
    {"endzone_depth": 8, "points_to_win": 1},
    {"first_receiver": "random", "max_cycles": 4},
    {"first_receiver": "player_1", "dense_reward": True, "points_to_win": 2, "max_cycles": 25},
]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _assert_matches(report) -> None:
    assert report.mismatch is None, report.mismatch.describe()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_random_play_matches_the_python_engine(options):
    report = run_differential(ENV, options, decisions=1_200, rows=24, chooser="random", seed=3, roundtrip_every=5)
    _assert_matches(report)
    assert report.decisions >= 1_200
    assert report.comparisons["observations"] >= 2 * report.decisions  # both seats' views, every decision


@pytest.mark.parametrize("options", [{}, {"max_cycles": 6, "points_to_win": 1, "first_receiver": "random"},
                                     {"monster_defense_in_endzone": False, "run_through": "team"}])
def test_scripted_play_matches_the_python_engine(options):
    report = run_differential(ENV, options, decisions=800, rows=16, chooser="scripted", seed=1, roundtrip_every=5)
    _assert_matches(report)


def test_games_end_and_are_dealt_afresh_in_both_engines():
    report = run_differential(ENV, {"max_cycles": 3}, decisions=1_500, rows=16, seed=5, roundtrip_every=3)
    _assert_matches(report)
    assert report.games_finished > 16


class _OneMaskBitFlipped(ArrayEngine):
    """A broken engine: DONE is offered wrongly in a running step (or withheld where it is legal)."""

    def legal_mask(self, state):
        mask = super().legal_mask(state).clone()
        mask[:, 162] ^= state["phase"] == SELECT
        return mask


class _ForgetsTheCycle(ArrayEngine):
    """A broken engine: its step never counts a cycle."""

    def step(self, state, actions, chance=None):
        nxt, rewards, terminal = super().step(state, actions, chance)
        return {**nxt, "cycle": state["cycle"]}, rewards, terminal


class _BlindToTheDisc(ArrayEngine):
    """A broken engine: its observation leaves out where the disc is."""

    def observe(self, state, seats):
        obs = super().observe(state, seats).clone()
        obs[:, 2 * 162 : 3 * 162] = 0
        return obs


@pytest.mark.parametrize(("broken", "what"), [(_OneMaskBitFlipped, "legal mask"), (_ForgetsTheCycle, "next state"),
                                              (_BlindToTheDisc, "observation")])
def test_the_harness_catches_a_broken_engine(broken, what):
    game = game_class(ENV).from_config({})
    report = run_differential(ENV, decisions=5_000, rows=8, engine=broken(game), seed=2)
    assert report.mismatch is not None
    assert report.mismatch.what.startswith(what), report.mismatch.describe()
    assert f"row {report.mismatch.row}" in report.mismatch.describe()
    assert report.decisions < 5_000


def _play(ids: list[int], steps: int) -> dict[int, dict[str, torch.Tensor]]:
    """Play rows `ids` with actions each row picks from its own id and mask alone; each row's final state."""
    env = batch(ENV, len(ids), backend="array", ids=ids, seed=11, max_cycles=3)
    _, mask, _ = env.reset()
    row_ids = torch.as_tensor(ids)
    for k in range(steps):
        score = (row_ids[:, None] * 7919 + k * 104729 + torch.arange(mask.shape[1])) % 1009
        _, mask, *_ = env.step(torch.where(mask.bool(), score, -1).argmax(1))
    return {i: {name: value[row] for name, value in env.state.items()} for row, i in enumerate(ids)}


def test_a_rows_course_does_not_depend_on_the_batch():
    alone = _play([5, 2], 90)
    together = _play([0, 1, 2, 3, 4, 5, 6], 90)
    for i in (5, 2):
        for name, value in alone[i].items():
            assert torch.equal(value, together[i][name]), (i, name)


def test_random_play_at_a_large_batch_runs_and_restarts_finished_games():
    env = batch(ENV, 1024, backend="array", seed=0, max_cycles=1)
    obs, mask, seat = env.reset()
    assert obs.shape == (1024, 9 * 162 + 14) and mask.shape == (1024, 164) and seat.shape == (1024,)
    generator = torch.Generator().manual_seed(0)
    finished = 0
    for _ in range(60):
        actions = (torch.rand(mask.shape, generator=generator) * mask).argmax(1)
        obs, mask, seat, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        assert bool(mask.any(1).all()), "every row waits on a decision with a legal action"
        if bool(done.any()):
            rows = done.nonzero()[:, 0]
            assert bool((env.state["phase"][rows] == PLACE).all()) and bool((env.state["decisions"][rows] == 0).all())
            assert bool((info["length"][rows] > 0).all())
            finished += len(rows)
    assert finished > 1024
    assert int(env.episodes.min()) >= 2
