"""The card game's scripted bot on the array engine (envs/ultimatum_cards/array/scripted.py) against the Python
bot (envs/ultimatum_cards/scripted.py), decision by decision, in games both engines play in lockstep (the
differential harness, envs/core/array/differential.py), for several player counts and rule options; and the
array sampler seating it."""

from __future__ import annotations

from collections import Counter

import pytest
import torch

from ultimata.envs.core.array.differential import run_differential
from ultimata.envs.core.array.engine import ArrayGame, games_with_scripted_actions, has_scripted_actions
from ultimata.envs.core.errors import ConfigError
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards import scripted
from ultimata.envs.ultimatum_cards.phases import OVER, PLAY

ENV = "ultimatum_cards_v3"
OPTIONS = [
    {},
    {"num_players": 3, "give_to_self": True},
    {"num_players": 5, "blockers": "any", "reaction_windows": "revealing"},
    {"num_players": 6, "reaction_windows": "revealing", "target_blocks_own_counter": False, "blockers": "any"},
    {"mode": "match", "match_rounds": 3, "chips_carry_over": True, "num_players": 3},
    {"mode": "point", "target_score": 30, "max_rounds": 4, "starting_chips": 37, "last_card_ends_round": True},
    {"hand_size": 4, "starting_chips": 2, "draw_count": 5, "num_players": 6, "give_to_self": True},
]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def mixed_chooser(state, rng: Rng) -> int:
    """Scripted moves two times in three, random ones otherwise: the scripted bot's own lines of play, and
    positions it would not reach by itself."""
    if rng.below(3):
        return scripted.choose_action(state, rng)
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


def python_choices(state) -> set[int]:
    """Every action the Python bot may choose here: the best-scored cards in PLAY (its tie set), else its one
    choice (its only other draw, the fallback, is never reached)."""
    if state.phase == PLAY:
        plan = scripted._Planner(state, state.current_player)
        scores = {k: scripted._card_score(state, state.current_player, k, plan) for k in state.legal_actions()}
        best = max(scores.values())
        return {k for k, v in scores.items() if v == best}
    return {scripted.choose_action(state, Rng(0))}


class Checker:
    """Compares the array bot's action with the Python bot's at every decision the harness shows it."""

    def __init__(self) -> None:
        self.generator = torch.Generator().manual_seed(5)
        self.phases: Counter[int] = Counter()
        self.ties = 0
        self.wrong: list[str] = []

    def __call__(self, states, engine, array) -> None:
        got = engine.scripted_actions(array, self.generator).tolist()
        mask = engine.legal_mask(array)
        for row, state in enumerate(states):
            if state.phase == OVER:
                continue
            want = python_choices(state)
            self.phases[state.phase] += 1
            self.ties += len(want) > 1
            if got[row] not in want or not bool(mask[row, got[row]]):
                self.wrong.append(f"phase {state.phase}: array {got[row]}, Python {sorted(want)}\n"
                                  f"{state.render_text()}")


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_the_array_bot_chooses_what_the_python_bot_chooses(options):
    checker = Checker()
    report = run_differential(ENV, options, decisions=1_500, rows=24, chooser=mixed_chooser, seed=7,
                              compare_all_seats=False, roundtrip_every=0, on_decision=checker)
    assert report.mismatch is None, report.mismatch.describe()
    assert not checker.wrong, f"{len(checker.wrong)} decisions differ; the first:\n{checker.wrong[0]}"
    assert report.games_finished > 0
    assert sum(checker.phases.values()) >= 1_400


def test_every_phase_and_card_tie_is_checked():
    """The checks above reach every kind of decision (so none of the bot's rules goes untested), and PLAY ties,
    where only the tie set is compared."""
    checker = Checker()
    run_differential(ENV, {"num_players": 5, "blockers": "any"}, decisions=3_000, rows=32, chooser=mixed_chooser,
                     seed=3, compare_all_seats=False, roundtrip_every=0, on_decision=checker)
    assert not checker.wrong, checker.wrong[0]
    assert set(checker.phases) == set(range(OVER)), checker.phases
    assert checker.ties > 0


def test_play_ties_are_broken_at_random_by_the_generator():
    """Two generators seeded alike give the same moves; the tie set's cards all turn up over many draws."""
    from ultimata.envs.core.registry import game_class
    from ultimata.envs.ultimatum_cards.array import ArrayEngine

    game = game_class(ENV).from_config({})
    state = game.new_initial_state(Rng(0))
    state.hands[state.current_player] = [0] * 17
    state.hands[state.current_player][12] = 2  # Block
    state.hands[state.current_player][14] = 1  # Counter: both score -0.5, a tie
    engine = ArrayEngine(game)
    rows = engine.from_states([state] * 64)
    first = engine.scripted_actions(rows, torch.Generator().manual_seed(1))
    again = engine.scripted_actions(rows, torch.Generator().manual_seed(1))
    assert torch.equal(first, again)
    assert set(first.tolist()) == {12, 14} == python_choices(state)


def test_a_game_without_an_array_scripted_bot_says_which_have_one():
    assert has_scripted_actions(ArrayGame) is False
    assert ENV in games_with_scripted_actions()

    class NoBot(ArrayGame):  # only the base's scripted_actions matters here
        deal = current_player = legal_mask = step = observe = from_states = to_states = python_step = None

    from ultimata.envs.core.registry import game_class

    engine = NoBot(game_class(ENV).from_config({}))
    with pytest.raises(ConfigError, match=f"no scripted bot.*{ENV}"):
        engine.scripted_actions({}, None)


def test_the_array_sampler_seats_the_scripted_bot_and_its_moves_are_legal(monkeypatch):
    """A heuristic pool on `sampler.kind: array`: scripted seats are dealt, and every move they make is legal
    (the array backend refuses none: each step's actions are checked against the mask here)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from ultimata.envs.core.registry import game_class
    from ultimata.training.array_sampler import SCRIPTED_SEAT, ArraySampler
    from ultimata.training.config import load_train_config
    from ultimata.training.model import new_model
    from ultimata.training.trainer import SpacesEnv

    cfg = load_train_config(ENV, overrides={"sampler": {"kind": "array", "games": 32, "rollout": 256},
                                            "pool": {"weights": {"mirror": 0.25, "heuristic": 0.5, "random": 0.25}},
                                            "ppo": {"batch_size": 64, "net_arch": [16]}})
    game = game_class(ENV).from_config(cfg.rules)
    model = new_model(cfg, DummyVecEnv([lambda: SpacesEnv(game)]), None, game)
    sampler = ArraySampler(cfg, game, model.policy, [])
    engine = sampler.env.engine
    checked = {"scripted": 0}
    scripted_actions = engine.scripted_actions

    def checked_actions(state, generator):
        actions = scripted_actions(state, generator)
        mask = engine.legal_mask(state)
        assert bool(mask.gather(1, actions[:, None]).all()), "a scripted seat chose an illegal move"
        checked["scripted"] += len(actions)
        return actions

    monkeypatch.setattr(engine, "scripted_actions", checked_actions)
    rollout = sampler.collect(256)
    assert len(rollout) == 256
    assert bool((sampler.owner == SCRIPTED_SEAT).any())
    assert checked["scripted"] > 200
