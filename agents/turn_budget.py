"""A turn's seconds shared out over its decisions, for search that must answer per turn, not per move.

A wargame turn can be dozens of decisions (troops placed one at a time), so a budget per decision makes a
turn take dozens of budgets. A turn here is one seat's run of consecutive decisions: it goes on while the
game's decision count is one past that seat's last decision (nobody else moved in between). Each searched
decision gets the turn's time left over the decisions the turn is expected still to need: the running
mean length of the seat's earlier turns, and once a turn outlasts that, as many again as it has had so
far plus one. Shares of a long turn shrink, so the whole turn stays within its seconds; where one
simulation costs more than a share (a slow game on a busy machine), the searcher's floor of simulations
overspends, and once the turn's time is gone its last decisions are answered without search: the turn ends
within its seconds and one decision's floor."""

from __future__ import annotations

FIRST_GUESS = 4.0
"""Searched decisions a turn is expected to have before any turn is seen."""
ADAPT = 0.25
"""Weight of the latest turn in the running mean: a game's phases (set-up, war) have turns of other lengths."""


class TurnBudget:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.left = seconds
        """Seconds of the current turn not yet spent."""
        self.done = 0
        """Searched decisions made in the current turn."""
        self.mean_length = FIRST_GUESS
        self._next: int | None = None
        """The decision count this seat's next decision has if its turn goes on."""

    def _follow(self, decisions: int) -> None:
        if decisions == self._next:
            return
        if self.done:  # the previous turn ended: learn its length
            self.mean_length += ADAPT * (self.done - self.mean_length)
        self.left, self.done = self.seconds, 0

    def expected_left(self) -> float:
        """Decisions the current turn is expected still to need, this one included."""
        return max(self.mean_length - self.done, self.done + 1.0)

    def share(self, decisions: int) -> float:
        """Seconds for the searched decision at `decisions` (the game's decision count): call `spent` after it."""
        self._follow(decisions)
        self._next = decisions + 1
        return max(0.0, self.left) / self.expected_left()

    def spent(self, seconds: float) -> None:
        self.left -= seconds
        self.done += 1

    def forced(self, decisions: int) -> None:
        """A decision with one legal move: it takes no time, and the turn goes on past it."""
        self._follow(decisions)
        self._next = decisions + 1
