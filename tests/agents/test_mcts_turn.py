"""`turn_time`: a whole turn of one seat shares one budget, so a bot whose turn is dozens of decisions still
answers in about that time. Checked by splitting arithmetic and a fake clock, never by the wall clock."""

from __future__ import annotations

import types

import pytest

import ultimata.agents.mcts as mcts
from ultimata.agents.mcts import MctsAgent, MctsOptions, parse_mcts_spec
from ultimata.agents.specs import hard_specs
from ultimata.agents.turn_budget import FIRST_GUESS, TurnBudget
from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_cards.game import UltimatumCardsGame


def play_turn(budget: TurnBudget, first: int, decisions: int) -> list[float]:
    """A turn of `decisions` searched decisions from decision count `first`, each spending its whole share."""
    shares = []
    for k in range(decisions):
        shares.append(budget.share(first + k))
        budget.spent(shares[-1])
    return shares


@pytest.mark.parametrize("length", [1, 3, 10, 120])
def test_a_turn_never_spends_more_than_its_seconds_however_long_it_runs(length) -> None:
    shares = play_turn(TurnBudget(5.0), 0, length)
    assert sum(shares) <= 5.0 + 1e-9
    assert shares[0] == 5.0 / FIRST_GUESS
    assert all(s > 0 for s in shares), "every decision keeps some time"
    assert shares == sorted(shares, reverse=True), "later decisions of a long turn get less"


def test_a_move_by_another_seat_starts_a_new_turn_with_the_whole_budget() -> None:
    budget = TurnBudget(5.0)
    play_turn(budget, 0, 3)
    assert budget.left < 5.0
    later = budget.share(7)  # decisions 3..6 were the other seats'
    assert budget.left == 5.0 and later == pytest.approx(5.0 / budget.expected_left())


def test_a_forced_move_keeps_the_turn_going() -> None:
    budget = TurnBudget(5.0)
    play_turn(budget, 0, 2)
    budget.forced(2)
    left = budget.left
    budget.share(3)
    assert budget.left == left and budget.done == 2


def test_the_expected_turn_length_follows_the_seats_turns() -> None:
    budget = TurnBudget(5.0)
    for turn in range(12):  # turns of one decision each, others moving in between
        play_turn(budget, turn * 10, 1)
    budget.share(500)
    assert budget.mean_length < 1.2, "a seat whose turns are one decision gets nearly the whole turn per decision"
    for turn in range(12):
        play_turn(budget, 1000 + turn * 100, 40)
    assert budget.mean_length > 30


def test_turn_time_lifts_the_decision_cap_unless_time_is_given() -> None:
    assert parse_mcts_spec("mcts:turn_time=5").time == 5
    assert parse_mcts_spec("mcts:turn_time=5,time=0.5").time == 0.5
    assert parse_mcts_spec("mcts:turn_time=120").time == 60, "a decision's cap stays within `time`'s range"
    assert parse_mcts_spec("mcts").turn_time is None


def test_every_games_hard_level_has_a_turn_budget_of_at_most_five_seconds() -> None:
    for game, spec in hard_specs().items():
        options = parse_mcts_spec(spec)
        assert options.turn_time is not None and options.turn_time <= 5, game
        assert options.time >= options.turn_time / 10, f"{game}: a decision may take a fair part of its turn"


COST = 1 / 64
"""Seconds one simulation takes on the fake clock (a power of two: sums stay exact)."""


@pytest.fixture()
def fake_clock(monkeypatch):
    """perf_counter as a number that each simulation moves on by COST seconds."""
    clock = [0.0]
    monkeypatch.setattr(mcts, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    return clock


def searching_agent(monkeypatch, clock, **options) -> MctsAgent:
    agent = MctsAgent("ultimatum_cards_v3", MctsOptions(sims=100_000, guide="none", **options), seed=0)
    agent.reset(0, 0)
    real = agent._simulate

    def timed(*args):
        clock[0] += COST
        real(*args)

    monkeypatch.setattr(agent, "_simulate", timed)
    return agent


def a_choice() -> object:
    state = UltimatumCardsGame.from_config({}).new_initial_state(Rng(1))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def test_the_search_splits_a_turn_between_its_decisions(monkeypatch, fake_clock) -> None:
    """Twenty decisions in a row by one seat (the position is held still and the decision count moves on):
    the first takes a FIRST_GUESS-th of the turn's second, later ones less; each searches at least `floor`
    simulations while the turn has time, and together they spend the second and at most one floor more."""
    agent = searching_agent(monkeypatch, fake_clock, turn_time=1.0, floor=2)
    state, sims = a_choice(), []
    for _ in range(20):
        start = fake_clock[0]
        agent.act(None, state.legal_action_mask(), state)
        sims.append(agent.last_simulations)
        assert fake_clock[0] - start == COST * agent.last_simulations
        state.decisions += 1
    assert sims[0] == 1.0 / FIRST_GUESS / COST
    searched = sims[:sims.index(0)] if 0 in sims else sims
    assert len(searched) >= 10 and min(searched) >= 2 and set(sims[len(searched):]) <= {0}
    assert searched == sorted(searched, reverse=True)
    assert 0.8 <= COST * sum(sims) <= 1.0 + 2 * COST


def test_the_next_turn_searches_afresh(monkeypatch, fake_clock) -> None:
    agent = searching_agent(monkeypatch, fake_clock, turn_time=1.0)
    state = a_choice()
    for _ in range(10):
        agent.act(None, state.legal_action_mask(), state)
        state.decisions += 1
    tired = agent.last_simulations
    state.decisions += 3  # three decisions by other seats
    agent.act(None, state.legal_action_mask(), state)
    assert agent.last_simulations > 3 * tired
    assert agent.last_budget == pytest.approx(agent.turn.seconds / agent.turn.mean_length)


def test_without_a_turn_budget_each_decision_has_its_own_time(monkeypatch, fake_clock) -> None:
    agent = searching_agent(monkeypatch, fake_clock, time=0.25)
    state = a_choice()
    for _ in range(5):
        agent.act(None, state.legal_action_mask(), state)
        assert agent.last_simulations == 0.25 / COST
        state.decisions += 1


def test_once_a_turns_time_is_spent_the_guide_answers_without_search(monkeypatch, fake_clock) -> None:
    """Simulations dearer than a long turn can afford (a slow game on a busy machine): the floor overspends
    the first shares, and from the decision that finds the turn's time gone the guide plays alone, so the
    turn ends within its seconds and one decision's floor."""
    agent = MctsAgent("ultimatum_cards_v3", MctsOptions(sims=100_000, guide="heuristic", turn_time=1.0), seed=0)
    agent.reset(0, 0)
    real = agent._simulate

    def dear(*args):
        fake_clock[0] += 0.375
        real(*args)

    monkeypatch.setattr(agent, "_simulate", dear)
    state, sims = a_choice(), []
    guide = agent._prior(state, state.legal_actions())
    for _ in range(12):
        action = agent.act(None, state.legal_action_mask(), state)
        sims.append(agent.last_simulations)
        state.decisions += 1
    assert sims[:3] == [1, 1, 1] and set(sims[3:]) == {0}
    assert fake_clock[0] <= 1.0 + 0.375
    assert action == max(guide, key=guide.get), "an unsearched decision plays the guide's move"
