"""The card game's array engine against its Python rules engine, move for move (envs/core/array/differential.py),
for every player count and rule option, and the array backend's own promises: a row's course does not depend on
the rows beside it, and finished games restart by themselves. The full 1M-decision run is `ultimata differential`."""

from __future__ import annotations

import pytest
import torch

from ultimata.envs import batch
from ultimata.envs.core.array.differential import run_differential
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.array import ArrayEngine
from ultimata.envs.ultimatum_cards.deck import DECK, ULTIMATUM
from ultimata.envs.ultimatum_cards.phases import BLOCKS, COUNTERS, PLAY

ENV = "ultimatum_cards_v3"
OPTIONS = [
    {},
    {"num_players": 3},
    {"num_players": 5, "blockers": "any"},
    {"num_players": 6, "reaction_windows": "revealing"},
    {"reaction_windows": "revealing", "blockers": "any", "target_blocks_own_counter": False},
    {"blockers": "any", "target_blocks_own_counter": False, "num_players": 3},
    {"num_players": 6, "give_to_self": True, "last_card_ends_round": True, "draw_count": 5},
    {"mode": "match", "match_rounds": 2, "chips_carry_over": True, "dense_reward": True},
    {"mode": "point", "target_score": 25, "max_rounds": 3, "num_players": 5, "dense_reward": True},
    {"hand_size": 4, "first_dealer": 2, "starting_chips": 3, "draw_count": 0},
]


pytestmark = pytest.mark.usefixtures("one_torch_thread")


def _assert_matches(report) -> None:
    assert report.mismatch is None, report.mismatch.describe()


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_random_play_matches_the_python_engine(options):
    report = run_differential(ENV, options, decisions=600, rows=16, chooser="random", seed=3, roundtrip_every=4)
    _assert_matches(report)
    assert report.decisions >= 600
    players = options.get("num_players", 4)
    assert report.comparisons["observations"] >= players * report.decisions  # every seat's view, every decision


@pytest.mark.parametrize("options", [{}, {"num_players": 5, "reaction_windows": "revealing", "blockers": "any"},
                                     {"mode": "match", "match_rounds": 2, "num_players": 3}])
def test_scripted_play_matches_the_python_engine(options):
    report = run_differential(ENV, options, decisions=500, rows=16, chooser="scripted", seed=1, roundtrip_every=4)
    _assert_matches(report)
    assert report.games_finished > 0


def test_a_new_rounds_deal_takes_the_python_engines_own_shuffle():
    """The chance a step takes is the deck order the Python engine drew: a round that ends mid-step deals the
    same hands in both engines."""
    game = game_class(ENV).from_config({"mode": "match", "match_rounds": 3})
    engine = ArrayEngine(game)
    state = game.new_initial_state(Rng(4))
    deals = 0
    while not state.is_terminal():
        before = engine.from_states([state])
        rounds, action = state.rounds_played, state.legal_actions()[0]
        chance = engine.python_step(state, action)
        assert (chance[0] >= 0) == (state.rounds_played > rounds and not state.is_terminal())
        after, _, _ = engine.step(before, torch.as_tensor([action]), chance[None])
        if chance[0] >= 0:
            deals += 1
            assert sorted(chance.tolist()) == list(range(len(DECK)))
            assert engine.to_states(after)[0].hands == state.hands
    assert deals == 2


class _CountersAnyAmount(ArrayEngine):
    """A broken engine: a Counter window offers every amount, not only up to the target's chips."""

    def legal_mask(self, state):
        mask = super().legal_mask(state).clone()
        lay = self.game.layout
        mask[:, lay.amount:lay.accept] |= (state["phase"] == COUNTERS)[:, None]
        return mask


class _UltimatumTakesNothing(ArrayEngine):
    """A broken engine: an accepted Ultimatum moves no chips."""

    def step(self, state, actions, chance=None):
        nxt, rewards, terminal = super().step(state, actions, chance)
        resolved = (state["card"] == ULTIMATUM) & (nxt["phase"] == PLAY) & (state["phase"] != PLAY)
        return {**nxt, "chips": torch.where(resolved[:, None], state["chips"], nxt["chips"])}, rewards, terminal


class _ForgetsThePlays(ArrayEngine):
    """A broken engine: its observation leaves out the oldest remembered play."""

    def observe(self, state, seats):
        obs = super().observe(state, seats).clone()
        at = self.game.obs_layout.slices["history"]
        obs[:, at.stop - 30:at.stop] = 0
        return obs


BROKEN = [(_CountersAnyAmount, "legal mask"), (_UltimatumTakesNothing, "next state"), (_ForgetsThePlays, "observation")]


@pytest.mark.parametrize(("broken", "what"), BROKEN)
def test_the_harness_catches_a_broken_engine(broken, what):
    game = game_class(ENV).from_config({})
    report = run_differential(ENV, decisions=20_000, rows=8, engine=broken(game), seed=2)
    assert report.mismatch is not None
    assert report.mismatch.what.startswith(what), report.mismatch.describe()
    assert report.decisions < 20_000


def _play(ids: list[int], steps: int) -> dict[int, dict[str, torch.Tensor]]:
    """Play rows `ids` with actions each row picks from its own id and mask alone; each row's final state."""
    env = batch(ENV, len(ids), backend="array", ids=ids, seed=11, num_players=3)
    _, mask, _ = env.reset()
    row_ids = torch.as_tensor(ids)
    for k in range(steps):
        score = (row_ids[:, None] * 7919 + k * 104729 + torch.arange(mask.shape[1])) % 1009
        _, mask, *_ = env.step(torch.where(mask.bool(), score, -1).argmax(1))
    return {i: {"episodes": env.episodes[row], **{name: value[row] for name, value in env.state.items()}}
            for row, i in enumerate(ids)}


def test_a_rows_course_does_not_depend_on_the_batch():
    alone = _play([5, 2], 150)
    together = _play(list(range(64)), 150)
    assert int(alone[5]["episodes"]) > 1, "the rows were dealt again (new games drew from their keys)"
    for i in (5, 2):
        for name, value in alone[i].items():
            assert torch.equal(value, together[i][name]), (i, name)


def test_random_play_at_a_large_batch_runs_and_restarts_finished_games():
    game = game_class(ENV).from_config({})
    env = batch(ENV, 1024, backend="array", seed=0)
    obs, mask, seat = env.reset()
    assert obs.shape == (1024, *game.observation_shape) and mask.shape == (1024, game.num_actions)
    generator = torch.Generator().manual_seed(0)
    finished = 0
    for _ in range(120):
        actions = (torch.rand(mask.shape, generator=generator) * mask).argmax(1)
        obs, mask, seat, rewards, terminated, truncated, info = env.step(actions)
        done = terminated | truncated
        assert bool(mask.any(1).all()), "every row waits on a decision with a legal action"
        if bool(done.any()):
            rows = done.nonzero()[:, 0]
            assert bool((env.state["decisions"][rows] == 0).all()) and bool((env.state["phase"][rows] == PLAY).all())
            ended = info["returns"][rows]
            assert torch.allclose(ended.sum(1), torch.zeros(len(rows)), atol=1e-6)  # zero-sum results
            finished += len(rows)
    assert finished > 200
    assert bool((env.state["phase"] == BLOCKS).any() | (env.state["phase"] == COUNTERS).any())
