"""`envs.vector`: one seat of every game as a `gymnasium.vector.VectorEnv`, checked by gymnasium's own
checks and wrappers, on the Python backend and on the toy array engine."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_reset_options, check_reset_seed_determinism, data_equivalence
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.wrappers.vector import DictInfoToList, NormalizeObservation, RecordEpisodeStatistics

from tests.toy_array_game import pile_engine
from ultimata.envs import IllegalActionError, vector
from ultimata.envs.array_batch import ArrayBatchEnv
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.vector import SeatVectorEnv

GAME = "ultimatum_cards_v3"


def _toy_view(num_envs: int = 8, **kwargs: Any) -> SeatVectorEnv:
    batch = ArrayBatchEnv(pile_engine(kwargs.pop("max_decisions", 100)), num_envs, seed=kwargs.pop("seed", None),
                          numpy=True)
    return SeatVectorEnv(batch, **kwargs)


VIEWS = {"python": lambda **kw: vector(GAME, 4, **kw), "toy array": lambda **kw: _toy_view(**kw)}


def _masked_random(view: SeatVectorEnv, rng: np.random.Generator) -> np.ndarray:
    mask = view.action_masks()
    return ((rng.random(mask.shape) + 1e-9) * mask).argmax(axis=1)


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_gymnasiums_reset_checks_pass(make: Any) -> None:
    view = make()
    assert isinstance(view, VectorEnv) and view.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    check_reset_seed_determinism(view)
    check_reset_options(view)
    first, _ = view.reset(seed=7)
    again, _ = view.reset(seed=7)
    assert data_equivalence(first, again, exact=True)
    assert first in view.observation_space
    view.close()
    assert view.closed


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_a_seeded_run_steps_identically_and_stays_in_its_spaces(make: Any) -> None:
    runs = []
    for _ in range(2):
        view, rng = make(seed=3), np.random.default_rng(0)
        obs, info = view.reset(seed=3)
        steps = [(obs, info)]
        for _ in range(30):
            out = view.step(_masked_random(view, rng))
            assert out[0] in view.observation_space
            assert out[1].dtype == np.float64 and out[2].dtype == out[3].dtype == np.bool_
            steps.append(out)
        runs.append(steps)
    assert data_equivalence(runs[0], runs[1], exact=True)


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_gymnasiums_vector_wrappers_apply(make: Any) -> None:
    view = DictInfoToList(RecordEpisodeStatistics(make(seed=1)))
    rng = np.random.default_rng(1)
    view.reset(seed=1)
    recorded, summed = [], []
    totals = np.zeros(view.num_envs)
    for _ in range(200):
        mask = view.unwrapped.action_masks()
        _, reward, terminated, truncated, infos = view.step(((rng.random(mask.shape) + 1e-9) * mask).argmax(axis=1))
        assert isinstance(infos, list) and len(infos) == view.num_envs
        totals += reward
        for row in np.flatnonzero(terminated | truncated):
            summed.append(totals[row])
            totals[row] = 0
            recorded.append(infos[row]["episode"]["r"][()])
    assert recorded, "no episode finished in 200 steps"
    np.testing.assert_allclose(recorded, summed)
    NormalizeObservation(make())  # accepts the declared NEXT_STEP mode
    with pytest.raises(AssertionError):
        NormalizeObservation(make(autoreset_mode="SameStep"))  # and reads the mode it is told


def test_next_step_shows_the_final_view_then_resets_with_zero_reward_and_ignores_the_action() -> None:
    view = vector(GAME, 6, seed=4, seat=1)
    states: dict[int, Any] = {}
    step_rows = view.batch._step_rows

    def spy(rows, actions, on_illegal):  # remember the first game each row finishes in a step: yours
        out = step_rows(rows, actions, on_illegal)
        for k, state in out[3]["final_state"].items():
            states.setdefault(int(rows[k]), state)
        return out

    view.batch._step_rows = spy
    rng = np.random.default_rng(2)
    view.reset(seed=4)
    finished = 0
    for _ in range(150):
        states.clear()
        obs, reward, terminated, truncated, info = view.step(_masked_random(view, rng))
        for row in np.flatnonzero(terminated | truncated):
            finished += 1
            np.testing.assert_array_equal(obs[row], states[row].observation(1))  # your seat's final view
            assert info["result"][row] == states[row].returns()[1] and info["action_mask"][row].all()
            ignored = np.zeros(6, np.int64)  # any action for that row is accepted on the next step
            before = view.batch.episodes[row]
            obs2, reward2, terminated2, truncated2, info2 = view.step(np.where(np.arange(6) == row, ignored,
                                                                               _masked_random(view, rng)))
            assert reward2[row] == 0 and not terminated2[row] and not truncated2[row]
            assert view.batch.episodes[row] == before and view.batch.seats()[row] == 1 == info2["seat"][row]
            np.testing.assert_array_equal(obs2[row], view.batch.observe([row])[0][0])
            break
    assert finished


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_same_step_returns_the_next_game_and_the_final_view_in_info(make: Any) -> None:
    view = make(seed=5, autoreset_mode=AutoresetMode.SAME_STEP)
    assert view.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    rng = np.random.default_rng(3)
    obs, info = view.reset(seed=5)
    finished = 0
    totals = np.zeros(view.num_envs)
    for _ in range(120):
        obs, reward, terminated, truncated, info = view.step(_masked_random(view, rng))
        totals += reward
        done = terminated | truncated
        assert ("final_obs" in info) == bool(done.any())
        for row in np.flatnonzero(done):
            finished += 1
            assert info["_final_obs"][row] and info["_final_info"][row]
            assert info["final_obs"][row].shape == view.single_observation_space.shape
            # sparse rewards: your episode's rewards add up to your seat's result
            assert totals[row] == pytest.approx(info["final_info"]["result"][row])
            totals[row] = 0
        if done.any():
            assert all(info["final_obs"][row] is None for row in np.flatnonzero(~done))
        assert (view.batch.seats() == info["seat"]).all()  # every row waits on your decision at once
    assert finished


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_the_opponent_plays_only_the_other_seats(make: Any) -> None:
    calls: list[np.ndarray] = []

    def opponent(obs: np.ndarray, mask: np.ndarray, seat: np.ndarray) -> np.ndarray:
        calls.append(seat.copy())
        return mask.argmax(axis=1)

    view = make(seed=6, seat=0, opponent=opponent)
    rng = np.random.default_rng(4)
    _, info = view.reset(seed=6)
    assert (info["seat"] == 0).all()
    for _ in range(40):
        _, _, _, _, info = view.step(_masked_random(view, rng))
        assert (info["seat"] == 0).all()
    assert calls and all((c != 0).all() for c in calls)


def test_the_seat_rotates_game_by_game_when_none_is_given() -> None:
    view = vector(GAME, 4, seed=8)
    _, info = view.reset(seed=8)
    assert sorted(info["seat"].tolist()) == [0, 1, 2, 3]  # rows 0-3 start at different seats
    seen: set[int] = set()
    rng = np.random.default_rng(5)
    for _ in range(300):
        *_, info = view.step(_masked_random(view, rng))
        seen |= set(info["seat"][0:1].tolist())
    assert len(seen) > 1


@pytest.mark.parametrize("make", VIEWS.values(), ids=list(VIEWS))
def test_your_illegal_action_ends_your_game_with_minus_one_and_an_opponents_raises(make: Any) -> None:
    view = make(seed=9, seat=0)
    view.reset(seed=9)
    mask = view.action_masks()
    actions = mask.argmax(axis=1)
    actions[1] = int(np.flatnonzero(mask[1] == 0)[0])
    _, reward, terminated, truncated, info = view.step(actions)
    assert reward[1] == -1.0 and terminated[1] and not truncated[1] and info["illegal"].tolist()[1]
    assert not info["illegal"][[0, 2]].any()

    strict = make(seed=9, seat=0, on_illegal="raise")
    strict.reset(seed=9)
    with pytest.raises(IllegalActionError, match="row 1"):
        strict.step(actions)

    cheat = make(seed=9, seat=0, opponent=lambda obs, mask, seat: (mask == 0).argmax(axis=1))
    with pytest.raises(IllegalActionError):
        cheat.reset(seed=9)
        for _ in range(5):
            cheat.step(_masked_random(cheat, np.random.default_rng(0)))


def test_bad_settings_are_refused_with_what_is_allowed() -> None:
    with pytest.raises(ConfigError, match="seat must be 0..3"):
        vector(GAME, 2, seat=4)
    with pytest.raises(ConfigError, match="NextStep"):
        vector(GAME, 2, autoreset_mode="sometimes")
    with pytest.raises(ConfigError, match="Disabled is not offered"):
        vector(GAME, 2, autoreset_mode=AutoresetMode.DISABLED)
    with pytest.raises(ConfigError, match="numpy=True"):
        SeatVectorEnv(ArrayBatchEnv(pile_engine(), 2))
    view = vector(GAME, 2, seed=0)
    view.reset()
    with pytest.raises(IllegalActionError, match="2 integers"):
        view.step(np.zeros(3, np.int64))
