"""What a player holds and pays: countries gained as conquests or allies and lost (the record keeps their
value in half spaces, rule 16C), chips paid from and shared within a player alliance (18B/D), and the zone
bonus (rule 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.conquest_of_the_world.board import board
from ultimata.envs.conquest_of_the_world.terms import CONQUEST, HOME, NONE

if TYPE_CHECKING:
    from ultimata.envs.conquest_of_the_world.state import ConquestState as _Base
else:
    _Base = object

BOARD = board()


class HoldingRules(_Base):
    """Holdings and chips, a part of ConquestState (state.py says how the rule modules are composed)."""

    def bloc_chips(self, p: int) -> int:
        """Rule 18B: allies combine their chips."""
        return sum(self.chips[q] for q in self.group(p))

    def _pay(self, p: int, amount: int) -> None:
        """Rule 18B: allies pool chips; gap (ours): the payer pays first, then its allies clockwise."""
        for q in self.group(p):
            part = min(amount, self.chips[q])
            self.chips[q] -= part
            amount -= part

    def _share(self, p: int, amount: int) -> None:
        """Rules 18D/19D: gains are divided equally among allies, in whole 100s, the rest to the winner."""
        side = self.group(p)
        each = amount // len(side) // 100 * 100
        for q in side:
            self.chips[q] += each
        self.chips[p] += amount - each * len(side)

    def _gain(self, p: int, c: int, kind: int) -> None:
        """p takes country c as a conquest (full value) or an ally (half value); then rule 7."""
        self.holder[c], self.kind[c] = p, kind
        self.record[p] += BOARD.value[c] * (2 if kind == CONQUEST else 1)
        self._zone_bonus(p, BOARD.zone[c])
        self._check_target()

    def _zone_bonus(self, p: int, z: int) -> None:
        """Rule 7: 1000 in chips per country of a fully held zone, the homeland excepted; paid once while
        the zone stays held (once per game with `zone_bonus_once`)."""
        if self.zone_paid[p][z]:
            return
        members = BOARD.zone_members[z]
        holder = self.holder
        for c in members:
            if holder[c] != p:
                return
        self.zone_paid[p][z] = True
        bonus = 1000 * sum(1 for c in members if self.kind[c] != HOME)
        self.chips[p] += bonus
        self._log(f"player_{p} dominates zone {z + 1}: {bonus} in chips")

    def _lose(self, q: int, c: int) -> None:
        """q loses country c: the record drops by the full value (conquest) or half (ally), rule 16C."""
        self.record[q] -= BOARD.value[c] * (2 if self.kind[c] == CONQUEST else 1)
        if not self.cfg.zone_bonus_once:
            self.zone_paid[q][BOARD.zone[c]] = False
        self.holder[c], self.kind[c] = -1, NONE
