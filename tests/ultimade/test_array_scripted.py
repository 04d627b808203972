"""ULTIMADE's scripted bot on the array engine (envs/ultimade/array/scripted.py) against the Python bot
(envs/ultimade/scripted.py), decision by decision, in games both engines play in lockstep (the differential
harness, envs/core/array/differential.py), under several rule options; and the array sampler seating it."""

from __future__ import annotations

from collections import Counter

import pytest
import torch

from ultimata.envs.core.array.differential import run_differential
from ultimata.envs.core.array.engine import games_with_scripted_actions
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimade import scripted
from ultimata.envs.ultimade.phases import MONSTER, OVER, PLACE, PULL, RUN, SELECT, THROW

ENV = "ultimade_v2"
OPTIONS = [
    {},
    {"run_through": "team", "monster_defense_in_endzone": False},
    {"run_through": "any", "run_length": 6, "monster_turn_faces": [2, 3, 4, 5]},
    {"throw_needs_free_field": False, "run_length": 2, "first_receiver": "player_1"},
    {"monster_defense": False, "straight_pull": False, "endzone_depth": 2},
    {"endzone_depth": 5, "points_to_win": 1, "first_receiver": "random"},
]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def mixed_chooser(state, rng: Rng) -> int:
    """Scripted moves three times in four, random ones otherwise: the scripted bot's own lines of play, and
    positions it would not reach by itself (a disc on the ground, a marked holder, scattered teams)."""
    if rng.below(4):
        return scripted.choose_action(state, rng)
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def python_scores(state) -> tuple[set[int], dict[int, float]]:
    """What the Python bot may choose here (its tie set where it breaks a tie, else its one choice) and the
    score it gave each legal move (empty where it scores none: one legal move, or Monster-Defense's rule). Its
    own `_pick` is watched, so both come from the bot's code, not from a second writing of it."""
    seen: list[list[tuple[float, int]]] = []
    pick = scripted._pick

    def watching(scored, rng):
        seen.append(scored)
        return pick(scored, rng)

    scripted._pick = watching
    try:
        choice = scripted.choose_action(state, Rng(0))
    finally:
        scripted._pick = pick
    if not seen:
        return {choice}, {}
    best = max(v for v, _ in seen[-1])
    return {a for v, a in seen[-1] if v >= best - scripted._EPS}, {a: v for v, a in seen[-1]}


class Checker:
    """Compares the array bot with the Python bot at every decision the harness shows it: the action (one of
    the tie set), and every legal move's score, bit for bit (a changed weight shows here long before it
    changes a choice)."""

    def __init__(self) -> None:
        self.generator = torch.Generator().manual_seed(5)
        self.phases: Counter[int] = Counter()
        self.running: Counter[tuple[str, str]] = Counter()
        """Running decisions by (who runs, where the disc is): the bot values each case its own way."""
        self.ties = 0
        self.scores = 0
        self.wrong: list[str] = []

    def __call__(self, states, engine, array) -> None:
        got = engine.scripted_actions(array, self.generator).tolist()
        scores = engine.scripted.scores(array).tolist()
        mask = engine.legal_mask(array)
        for row, state in enumerate(states):
            if state.phase == OVER:
                continue
            want, scored = python_scores(state)
            self.phases[state.phase] += 1
            if state.phase in (SELECT, RUN):
                self.running["offense" if state.to_move == state.offense else "defense",
                             "held" if state.holder >= 0 else "ground"] += 1
            self.ties += len(want) > 1
            self.scores += len(scored)
            differ = {a: (scores[row][a], v) for a, v in scored.items() if scores[row][a] != v}
            if got[row] not in want or not bool(mask[row, got[row]]) or differ:
                self.wrong.append(f"phase {state.phase}: array {got[row]}, Python {sorted(want)}; scores (array, "
                                  f"Python) that differ: {differ}\n{state.render_text()}")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_array_bot_chooses_what_the_python_bot_chooses(options):
    checker = Checker()
    report = run_differential(ENV, options, decisions=600, rows=16, chooser=mixed_chooser, seed=7,
                              compare_all_seats=False, roundtrip_every=0, on_decision=checker)
    assert report.mismatch is None, report.mismatch.describe()
    assert not checker.wrong, f"{len(checker.wrong)} decisions differ; the first:\n{checker.wrong[0]}"
    assert sum(checker.phases.values()) >= 550


def test_every_phase_and_a_tie_is_checked():
    """The checks reach every kind of decision (so none of the bot's rules goes untested) and ties, where only
    the tie set is compared; short games, so that set-up and pulls come round often."""
    checker = Checker()
    report = run_differential(ENV, {"max_cycles": 12, "points_to_win": 1}, decisions=2_000, rows=16,
                              chooser=mixed_chooser, seed=3, compare_all_seats=False, roundtrip_every=0,
                              on_decision=checker)
    assert not checker.wrong, checker.wrong[0]
    assert set(checker.phases) == {PLACE, PULL, SELECT, RUN, THROW, MONSTER}, checker.phases
    assert checker.ties > 0
    assert checker.scores > 10 * sum(checker.phases.values())
    assert report.games_finished > 0


def test_every_running_case_is_checked():
    """Deep endzones and one-field runs: the offense cannot always reach the pull, so the defense also runs
    with the disc on the ground (the bot's fourth way of valuing a position)."""
    checker = Checker()
    run_differential(ENV, {"max_cycles": 12, "points_to_win": 1, "endzone_depth": 8, "run_length": 1},
                     decisions=600, rows=16, chooser=mixed_chooser, seed=3, compare_all_seats=False,
                     roundtrip_every=0, on_decision=checker)
    assert not checker.wrong, checker.wrong[0]
    assert set(checker.running) == {(who, disc) for who in ("offense", "defense") for disc in ("held", "ground")}


def test_ties_are_broken_at_random_by_the_generator():
    """Two generators seeded alike give the same moves; every move of a tie set turns up over many rows (the
    first set-up move: the front row's two fields nearest column b score alike)."""
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.ultimade.array import ArrayEngine

    game = game_class(ENV).from_config({})
    state = game.new_initial_state(Rng(0))
    want, _ = python_scores(state)
    engine = ArrayEngine(game)
    rows = engine.from_states([state] * 64)
    first = engine.scripted_actions(rows, torch.Generator().manual_seed(1))
    again = engine.scripted_actions(rows, torch.Generator().manual_seed(1))
    assert torch.equal(first, again)
    assert set(first.tolist()) == want


def test_the_array_sampler_seats_ultimades_scripted_bot():
    """ULTIMADE is among the games whose array pool may seat `heuristic`, and a sampler with it collects a
    rollout in which scripted seats moved."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ultimata.envs.core.registry import game_class
    from ultimata.training.array_sampler import SCRIPTED_SEAT, ArraySampler
    from ultimata.training.config import load_train_config
    from ultimata.training.model import new_model
    from ultimata.training.trainer import SpacesEnv

    assert ENV in games_with_scripted_actions()
    cfg = load_train_config(ENV, overrides={"sampler": {"kind": "array", "games": 8, "rollout": 128},
                                            "imitation": None,
                                            "pool": {"weights": {"mirror": 0.5, "heuristic": 0.5}},
                                            "ppo": {"batch_size": 64, "conv_channels": [4], "conv_out_channels": 2}})
    game = game_class(ENV).from_config(cfg.rules)
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game)
    sampler = ArraySampler(cfg, game, model.policy, [])
    rollout = sampler.collect(128)
    assert len(rollout) == 128
    assert bool((sampler.owner == SCRIPTED_SEAT).any())
