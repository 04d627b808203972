"""A bot's "why": the move it plays with its share under the policy or of the search's visits, and the
alternatives it weighed; a hint for a seat holds nothing hidden from that seat (it is the same in positions
the seat cannot tell apart, as tests/agents/test_nothing_hidden.py checks the moves)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.agents.positions import HIDDEN, redealt_positions, reseeded_positions
from ultimata.agents import load_agent
from ultimata.agents.explain import TOP, explain, hint, masked_softmax
from ultimata.envs.core.registry import game_class
from ultimata.envs.core.rng import Rng

CARDS = "ultimatum_cards_v3"
SEARCH = "mcts:sims=12,time=30"
"""Fixed in simulations, not time, so the same seed searches the same tree."""


def opening(name: str = CARDS):
    return game_class(name).from_config({}).new_initial_state(Rng(1))


def test_a_learned_bot_explains_by_the_softmax_of_its_masked_logits() -> None:
    state = opening()
    agent = load_agent("pretrained", CARDS, seed=3)
    obs, mask = state.observation(state.current_player), state.legal_action_mask()
    why = explain(agent, obs, mask, state)
    shares = masked_softmax(agent.logits(obs), mask)
    assert why.how == "policy" and why.action == agent.act(obs, mask, state) == max(shares, key=shares.get)
    assert abs(sum(shares.values()) - 1) < 1e-9 and set(shares) == set(np.flatnonzero(mask).tolist())
    played, *others = why.considered
    assert played.share == pytest.approx(shares[why.action]) and len(others) == min(TOP, len(shares) - 1)
    assert [c.share for c in others] == sorted((c.share for c in others), reverse=True)
    words = why.words(state.action_to_string)
    assert state.action_to_string(why.action) in words and "also weighed" in words


def test_a_search_explains_by_its_visits_and_values_and_plays_what_it_explains() -> None:
    state = opening()
    agent = load_agent(SEARCH, CARDS, seed=3)
    agent.reset(state.current_player, 5)
    why = explain(agent, None, state.legal_action_mask(), state)
    agent.reset(state.current_player, 5)
    assert why.action == agent.act(None, state.legal_action_mask(), state)
    assert why.how == "search" and all(c.value is not None for c in why.considered)
    assert all(c.action in state.legal_actions() for c in why.considered)
    assert sum(c.share for c in why.considered) <= 1 + 1e-9


def test_bots_without_an_explanation_say_how_they_chose() -> None:
    state = opening()
    mask = state.legal_action_mask()
    plain = (("heuristic", "scripted rule", "a scripted rule"), ("random", "random", "a random legal move"))
    for spec, how, said in plain:
        why = explain(load_agent(spec, CARDS, seed=3), state.observation(state.current_player), mask, state)
        assert why.how == how and mask[why.action] == 1
        assert why.words(state.action_to_string).endswith(said)


def test_without_alternatives_the_words_name_only_the_move_played() -> None:
    state = opening()
    why = explain(load_agent("pretrained", CARDS, seed=3), state.observation(state.current_player),
                  state.legal_action_mask(), state)
    words = why.words(state.action_to_string, alternatives=False)
    assert all(state.action_to_string(c.action) not in words for c in why.considered[1:])


@pytest.mark.parametrize("name", HIDDEN)
def test_a_hint_is_the_same_in_positions_its_seat_cannot_tell_apart(name: str) -> None:
    agents = [load_agent(spec, name, seed=7) for spec in ("heuristic", "pretrained", SEARCH)]
    for state, twin in redealt_positions(name, 2) + reseeded_positions(name, 1):
        for agent in agents:
            seen, other = hint(agent, state, 11), hint(agent, twin, 11)
            assert seen == other, f"{agent.spec}'s hint in {name} reads hidden parts"
            assert seen.words(state.action_to_string) == other.words(twin.action_to_string)


def test_the_hint_check_catches_an_agent_that_peeks() -> None:
    class Peeker:
        spec = "peeker"

        def reset(self, seat, seed=None):
            pass

        def act(self, observation, action_mask, state=None):
            legal = state.legal_actions()
            return legal[state.rng.below(len(legal))]  # the dice to come decide: hidden from every seat

    hints = [(hint(Peeker(), s).action, hint(Peeker(), t).action) for s, t in reseeded_positions(HIDDEN[0], 6)]
    assert any(a != b for a, b in hints)
