"""Placing and moving pieces: reinforcements bought or given by a card placed one place at a time
(book: they "must be immediately placed on one or any number of" the player's nations or blockades),
vessels arriving at a sea place, and troops moving between two of a player's nations (moving in after a
conquest, an airlift), which more may follow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.actions import NATIONS
from ultimata.envs.ultimatum_world.content import world

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

W = world()
PIECES = ("troop", "battleship", "submarine")


class PlacementRules(_Base):
    """Placing and moving pieces, a part of WorldState (state.py says how the rule modules are composed)."""

    def _reinforce(self, p: int, pieces: list[int], what: str) -> None:
        """Purchased or card reinforcements wait in `placing` until every one is placed."""
        self.placing = [a + b for a, b in zip(self.placing, pieces)]
        self._log(f"player_{p} {what}")

    def _place(self, action: int) -> None:
        kind = next(i for i, c in enumerate(self.placing) if c)
        if self.place_at < 0 and self.placing[kind] > 1:
            self.place_at = action - A.PLACE
            return
        count = 1 if self.place_at < 0 else self._amount(action, self.placing[kind])
        where = action - A.PLACE if self.place_at < 0 else self.place_at
        self.place_at = -1
        self.placing[kind] -= count
        p = self.player
        if kind == 0:
            self.troops[where] += count
        else:
            self._add_vessels(p, where - NATIONS, kind == 1, count)
        self._log(f"player_{p} places {count} {PIECES[kind]}(s) on {W.place_name(where)}")

    def _add_vessels(self, p: int, t: int, battleship: bool, count: int) -> None:
        """New or moved vessels cannot move (again) until the player's next turn: not added to the ready
        counts. Moving into a blockade earns nothing (book), even one the player conquered this turn."""
        if t in self.emptied:
            self.emptied.remove(t)
        self.sea_owner[t] = p
        if battleship:
            self.bs[t] += count
        else:
            self.subs[t] += count

    def _move_troops(self, source: int, into: int, action: int) -> int:
        """Troops move between two of a player's nations, one always staying behind; more may follow."""
        moved = self._amount(action, self.troops[source] - 1)
        self.troops[source] -= moved
        self.troops[into] += moved
        self.transfer = [source, into] if self.troops[source] >= 2 else [-1, -1]
        return moved

    def _top_up(self, action: int) -> None:
        source, into = self.transfer
        if action == A.DONE:
            self.transfer = [-1, -1]
            return
        moved = self._move_troops(source, into, action)
        self._log(f"player_{self.owner[into]} moves {moved} more troops from {W.names[source]} to {W.names[into]}")

    @staticmethod
    def _amount(action: int, available: int) -> int:
        return {A.AMOUNT_ONE: 1, A.AMOUNT_HALF: max(1, available // 2), A.AMOUNT_ALL: available}[action]
