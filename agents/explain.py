"""Why a bot moves: its move with the share its policy gave it and the alternatives it weighed.

An agent may offer `explain(observation, action_mask, state) -> Explanation`; the explanation's `action`
is the move it plays, so a driver that shows the why plays that move instead of calling `act` (the why is
the decision's own, never a second search that may disagree). `explain` here falls back to "a scripted
rule" or "uniform over the legal moves" for agents without one. It reads only what `act` reads, so a hint
for a seat, from the seat's own observation and mask, holds nothing hidden from that seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ultimata.agents.base import as_action

if TYPE_CHECKING:
    from ultimata.envs.core.engine import State

TOP = 3
"""Alternatives shown besides the move played."""


@dataclass(frozen=True)
class Considered:
    action: int
    share: float
    """Its probability under the policy, or its share of the search's visits."""
    value: float | None = None
    """The search's mean value of the move for the mover (its returns, or squashed potentials at a cut-off),
    where a search weighed it."""


@dataclass(frozen=True)
class Explanation:
    action: int
    how: str
    """'policy', 'search', 'scripted rule', 'random', or 'its own rule' (an agent that does not say)."""
    considered: list[Considered] = field(default_factory=list)
    """The move played first, then the likeliest others (at most TOP), best first."""

    def words(self, label, alternatives: bool = True) -> str:
        """One line: `label(action)` names a move; without `alternatives` only the move played is named
        (the others would show a hidden hand to whoever reads it)."""
        plain = {"scripted rule": "a scripted rule", "random": "a random legal move", "its own rule": "its own rule"}
        if self.how in plain:
            return f"{label(self.action)}: {plain[self.how]}"
        unit = "share of the search's visits" if self.how == "search" else "probability under its policy"

        def one(c: Considered) -> str:
            value = f", value {c.value:+.2f}" if c.value is not None else ""
            return f"{label(c.action)} ({c.share:.0%}{value})"

        head, *others = self.considered
        if not alternatives:
            return f"{one(head)}: its {unit}; {len(others)} other moves weighed, not named (they would show its hand)"
        rest = f"; also weighed: {', '.join(one(c) for c in others)}" if others else "; no other move weighed"
        return f"{one(head)}: its {unit}{rest}"


def from_shares(action: int, how: str, shares: dict[int, float],
                values: dict[int, float] | None = None) -> Explanation:
    """The played move first, then the TOP likeliest others (ties by action number)."""
    values = values or {}
    others = sorted((a for a in shares if a != action), key=lambda a: (-shares[a], a))[:TOP]
    return Explanation(action, how, [Considered(a, shares.get(a, 0.0), values.get(a)) for a in [action, *others]])


def masked_softmax(logits: np.ndarray, action_mask: np.ndarray) -> dict[int, float]:
    """The policy's distribution over the legal moves: softmax of the logits with illegal ones masked."""
    legal = np.flatnonzero(action_mask)
    chosen = logits[legal].astype(np.float64)
    weights = np.exp(chosen - chosen.max())
    return dict(zip(legal.tolist(), (weights / weights.sum()).tolist()))


def explain(agent: object, observation: np.ndarray | None, action_mask: np.ndarray,
            state: State | None = None) -> Explanation:
    """The agent's own explanation, or, for one without `explain`, its move with how it was chosen."""
    own = getattr(agent, "explain", None)
    if callable(own):
        return own(observation, action_mask, state)
    action = int(as_action(agent.act(observation, action_mask, state)))
    how = {"random": "random", "heuristic": "scripted rule"}.get(getattr(agent, "spec", ""), "its own rule")
    return Explanation(action, how, [Considered(action, 1.0)])


def hint(agent: object, state: State, seed: int = 0) -> Explanation:
    """What `agent` would play in the mover's seat, and why: from that seat's observation and mask, and the
    state only as the agent protocol allows (search re-draws the hidden parts), seeded so a hint is
    repeatable."""
    seat = state.current_player
    agent.reset(seat, seed)
    return explain(agent, state.observation(seat), state.legal_action_mask(), state)
