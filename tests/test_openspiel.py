"""The OpenSpiel bridge (`ultimata[openspiel]`): every registered game under OpenSpiel's own checks, chance as
explicit nodes, copies without a hidden future, resampling from the engines' own sampler (issue 53)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random

from ultimata import openspiel as bridge
from ultimata.envs.core.registry import GAMES, game_base_name
from ultimata.openspiel_chance import MAX_OUTCOMES, ChanceNeeded, ChanceRng

SHORT = {  # rule keys as game parameters, so OpenSpiel's whole-game checks stay short (by base name: env
    # versions change, the games do not)
    "ultimade": {"points_to_win": 1},
    "conquest_of_the_world": {"max_turns": 3},
    "ultimatum_world": {"max_rounds": 2},
}
ENV = {game_base_name(name): name for name in GAMES}
CARDS = ENV["ultimatum_cards"]


def _load(env_name: str, **params):
    return pyspiel.load_game(bridge.short_name(env_name), {**SHORT.get(game_base_name(env_name), {}), **params})


def _play_chance(state, rng) -> None:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))


def test_every_registered_game_is_registered_under_its_env_name():
    assert [f"ultimata_{name}" for name in GAMES] == bridge.REGISTERED
    assert set(bridge.REGISTERED) <= set(pyspiel.registered_names())
    game = pyspiel.load_game(f"ultimata_{CARDS}", {"num_players": 3})
    assert game.num_players() == 3 and game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(Exception, match="num_players"):
        pyspiel.load_game(f"ultimata_{CARDS}", {"num_players": 9})


@pytest.mark.parametrize("env_name", list(GAMES))
def test_openspiels_random_simulation_passes(env_name):
    pyspiel.random_sim_test(_load(env_name), num_sims=1, serialize=False, verbose=False)


def test_openspiels_random_simulation_with_serialisation_passes_on_the_card_game():
    pyspiel.random_sim_test(_load(CARDS), num_sims=1, serialize=True, verbose=False)


def test_each_seat_gets_the_engines_observation_as_both_tensors():
    game = _load(CARDS)
    state = game.new_initial_state()
    _play_chance(state, np.random.default_rng(0))
    assert game.information_state_tensor_shape() == list(state.engine_state.game.observation_shape)
    for seat in range(game.num_players()):
        seen = state.engine_state.observation(seat)
        assert np.array_equal(state.information_state_tensor(seat), seen)
        assert np.array_equal(state.observation_tensor(seat), seen)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_a_copy_holds_no_generator_and_meets_the_same_chance_nodes():
    game = _load(CARDS)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 4  # the first dealer, one of 4 seats
    state.apply_action(0)
    assert len(state.chance_outcomes()) == 48  # then the deck's shuffle, card by card
    rng = np.random.default_rng(1)
    _play_chance(state, rng)
    copy = state.clone()
    assert type(copy.engine_state.rng) is ChanceRng and copy.engine_state.rng.script == []
    assert not hasattr(copy.engine_state.rng, "_gen")  # no generator: nothing in it says what comes next
    for _ in range(30):
        if state.is_terminal():
            break
        action = int(rng.choice(state.legal_actions()))
        state.apply_action(action)
        copy.apply_action(action)
        assert str(state) == str(copy) and state.history() == copy.history()


def test_resampling_keeps_what_the_seat_knows_and_redraws_the_rest():
    game = _load(CARDS)
    state = game.new_initial_state()
    _play_chance(state, np.random.default_rng(2))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(seat, sampler) for _ in range(5)]
    assert all(s.information_state_string(seat) == state.information_state_string(seat) for s in samples)
    assert all(s.history() == state.history() for s in samples)
    others = [k for k in range(game.num_players()) if k != seat]
    assert any(s.information_state_string(k) != state.information_state_string(k) for s in samples for k in others)
    with pytest.raises(ValueError, match="decision node"):
        game.new_initial_state().resample_from_infostate(0, sampler)


def _all_values(n: int) -> dict[int, Fraction]:
    """Every path through the chance nodes of one `below(n)`, with its probability."""
    found: dict[int, Fraction] = {}
    frontier = [([], Fraction(1))]
    while frontier:
        script, p = frontier.pop()
        try:
            value = ChanceRng(script).below(n)
        except ChanceNeeded as node:
            assert len(node.outcomes) <= MAX_OUTCOMES
            frontier += [([*script, k], p * Fraction(q).limit_denominator(10**6)) for k, q in node.outcomes]
            continue
        found[value] = found.get(value, Fraction(0)) + p
    return found


@pytest.mark.parametrize("n", [1, 6, 64, 65, 200])
def test_a_draw_of_any_size_keeps_every_value_equally_likely(n):
    values = _all_values(n)
    assert sorted(values) == list(range(n)) and all(p == Fraction(1, n) for p in values.values())


def test_a_shuffle_reaches_every_order():
    orders = set()
    for script in itertools.product(range(3), range(2)):
        orders.add(tuple(ChanceRng(list(script)).shuffled("abc")))
    assert len(orders) == 6


class _Search(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS bot; it builds a fresh tree every step, so `evaluate_bots`'s restart has nothing
    to reset (the bot itself lacks the hook)."""

    def restart_at(self, state) -> None:
        pass


@pytest.mark.parametrize("env_name", [CARDS, ENV["conquest_of_the_world"]])
def test_is_mcts_and_evaluate_bots_play_a_game(env_name):
    game = _load(env_name)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    search = _Search(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)
    others = [uniform_random.UniformRandomBot(k, rng) for k in range(1, game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [search, *others], rng)
    assert len(returns) == game.num_players() and all(-1.0 <= r <= 1.0 for r in returns)
