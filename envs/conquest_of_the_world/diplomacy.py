"""Player alliances (rule 18) as a protocol of masked decisions.

An alliance is a group of players (each player is in at most one). At the start of every turn of the
attack option, and again before each further move of the option holder in that turn, each living player
from the option holder clockwise gets a diplomacy window if it can do something there: propose an
alliance to a player (until the board is filled, 18A) or break its own alliance (any time, 18F). In the
end game a round of windows (breaks only, 21A) comes before each duel. A proposal is answered by every
player of the alliance it would make (the addressee first, then the addressee's allies, then the
proposer's), each of whom may decline; then the window goes back to the proposer. A window closes with
DONE, or by itself once nothing is left to do. Each decision uses something up (a proposal to that
player this turn, the alliance itself, the window), so a round always ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world import actions as A
from ultimata.envs.conquest_of_the_world.phases import DIPLOMACY, RESPOND, TURN
from ultimata.envs.conquest_of_the_world.terms import LADDER, PLAY

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState as _Base
else:
    _Base = object


class DiplomacyRules(_Base):
    """Player alliances, a part of ConquestState (state.py says how the rule modules are composed)."""

    # -- queries -----------------------------------------------------------------------------
    def group(self, p: int) -> list[int]:
        """p's alliance: p first, then its allies clockwise (p alone when it has none)."""
        n, row = self.n, self.allied[p]
        if True not in row:
            return [p]
        return [p] + [(p + k) % n for k in range(1, n) if row[(p + k) % n]]

    def may_propose(self, p: int, q: int) -> bool:
        """Rule 18A: with 3+ players, until the board is filled (the play stage), to a living player of
        another alliance, once per round; 18F: never renewing a broken alliance (no member of one side
        broke with a member of the other); gap (ours): an alliance never takes in every living player."""
        if not (self.stage == PLAY and self.cfg.player_alliances and self.n >= 3):
            return False
        if q == p or not self.alive[q] or self.allied[p][q] or self.proposed[p][q]:
            return False
        mine, theirs = self.group(p), self.group(q)
        if len(mine) + len(theirs) >= sum(self.alive):
            return False
        broken = self.broken
        return not any(broken[x][y] for x in mine for y in theirs)

    def may_break(self, p: int) -> bool:
        """Rule 18F: an alliance may be broken by any of its players at any time."""
        return True in self.allied[p]

    def has_window(self, p: int) -> bool:
        return self.may_break(p) or any(self.may_propose(p, (p + r) % self.n) for r in range(1, self.n))

    def diplomacy_actions(self, p: int) -> list[int]:
        out = [A.propose_action(r) for r in range(1, self.n) if self.may_propose(p, (p + r) % self.n)]
        if self.may_break(p):
            out.append(A.BREAK)
        out.append(A.DONE)
        return out

    # -- the round of windows ----------------------------------------------------------------
    def _open_diplomacy(self, p: int, new_turn: bool = True) -> None:
        """A round of windows from p clockwise. A turn's first round lets every proposal be made again;
        the rounds before the option holder's later moves in its turn (after a buy or a won war) and
        before each end-game duel go on with the turn's proposals. So an alliance may be broken before
        every war and every duel (18F: "at any time")."""
        n = self.n
        if new_turn:
            self.proposed = [[False] * n for _ in range(n)]
        self.round_left = [(p + k) % n for k in range(n) if self.alive[(p + k) % n]]
        self._next_window()

    def _next_window(self) -> None:
        """The next player of the round who can do something; after the last, the option holder's move
        (or, in the end game, the next duel)."""
        while self.round_left:
            q = self.round_left.pop(0)
            if self.has_window(q):
                self.phase, self.window = DIPLOMACY, q
                return
        self.window = -1
        if self.stage == LADDER:
            self._next_duel()
        else:
            self.phase = TURN

    def _resume_window(self) -> None:
        if self.has_window(self.window):
            self.phase = DIPLOMACY
        else:
            self._next_window()

    def _diplomacy_action(self, p: int, action: int) -> None:
        if action == A.DONE:
            self._next_window()
        elif action == A.BREAK:
            self._break(p)
        else:
            self._propose(p, (p + action - A.PROPOSE + 1) % self.n)

    # -- proposals, answers, breaks ----------------------------------------------------------
    def _propose(self, p: int, q: int) -> None:
        self.proposed[p][q] = True
        self.proposal = [p, q]
        self.answers = self.group(q) + self.group(p)[1:]
        self.phase = RESPOND
        self._log(f"player_{p} proposes a player alliance to player_{q}")

    def _respond(self, r: int, accept: bool) -> None:
        p, q = self.proposal
        if accept:
            self._log(f"player_{r} accepts the alliance of player_{p} with player_{q}")
            self.answers.pop(0)
            if self.answers:
                return
            members = self.group(p) + self.group(q)
            for x in members:
                for y in members:
                    self.allied[x][y] = x != y
            self._log("now allied: " + ", ".join(f"player_{x}" for x in sorted(members)))
        else:
            self._log(f"player_{r} declines the alliance of player_{p} with player_{q}")
        self.proposal, self.answers = [-1, -1], []
        self._resume_window()

    def _break(self, p: int) -> None:
        """p leaves its alliance for good: it can never ally again with any player it leaves (18F)."""
        left = self.group(p)[1:]
        for x in left:
            self.allied[p][x] = self.allied[x][p] = False
            self.broken[p][x] = self.broken[x][p] = True
        self._log(f"player_{p} breaks the alliance with " + ", ".join(f"player_{x}" for x in left))
        self._resume_window()
