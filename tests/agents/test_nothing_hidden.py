"""Our own agents read nothing hidden from the `state` drivers pass them (the agent protocol's rule).

An agent that peeks chooses differently in two positions its seat cannot tell apart: one re-dealt
(other hands, deck order) and one whose future chance (dice, draws to come) is re-seeded. Each of
ours must choose the same in both, given the same seed.
"""

from __future__ import annotations

import pytest

from tests.agents.positions import HIDDEN, redealt_positions, reseeded_positions
from ultimata.agents import load_agent
from ultimata.agents.base import game_base_name
from ultimata.agents.specs import hard_specs
from ultimata.envs import GAMES

SEARCH_BUDGET = "sims=12,time=30"
"""A budget fixed in simulations, not time, so the same seed searches the same tree."""


def _specs(name: str) -> list[str]:
    hard = hard_specs()[game_base_name(name)]
    hard = f"{hard}{',' if ':' in hard else ':'}{SEARCH_BUDGET}" if hard.startswith("mcts") else hard
    return ["random", "heuristic", "pretrained", f"mcts:{SEARCH_BUDGET}", hard]


def _choice(agent, state) -> int:
    """The agent's move, from the same seed every time (reset re-seeds all of ours)."""
    me = state.current_player
    agent.reset(me, 11)
    return int(agent.act(state.observation(me), state.legal_action_mask(), state))


def _twins(name: str) -> list[tuple]:
    pairs = reseeded_positions(name, 2)
    return pairs + (redealt_positions(name, 2) if name in HIDDEN else [])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_our_agents_choose_alike_in_positions_their_seat_cannot_tell_apart(name):
    agents = {spec: load_agent(spec, name, seed=7) for spec in _specs(name)}
    for state, twin in _twins(name):
        for spec, agent in agents.items():
            assert _choice(agent, state) == _choice(agent, twin), f"{spec} reads hidden parts of {name}"


def test_the_check_catches_an_agent_that_peeks():
    class Peeker:
        def reset(self, seat, seed=None):
            pass

        def act(self, observation, action_mask, state=None):
            legal = state.legal_actions()
            return legal[state.rng.below(len(legal))]  # the dice to come decide: hidden from every seat

    name = sorted(GAMES)[0]
    chose = [(Peeker().act(None, None, s), Peeker().act(None, None, t)) for s, t in reseeded_positions(name, 6)]
    assert any(a != b for a, b in chose)
