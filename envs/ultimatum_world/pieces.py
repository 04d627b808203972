"""What is left of a player's set of pieces (book: "each player chooses one set of playing pieces").
Pieces on the board, waiting to be placed or fighting at sea are taken from the set; pieces lost go
back to it. A large disc stands for ten troops or a laser, so troops and lasers share the large discs,
counted as ten troops each wherever they are needed (players make change). Config `pieces: null`
lifts the limits."""

from __future__ import annotations

from itertools import compress
from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world.content import CardSpec

if TYPE_CHECKING:
    from ultimata.envs.ultimatum_world.state import WorldState as _Base
else:
    _Base = object

UNLIMITED = 1 << 30


class PieceRules(_Base):
    """The sets of pieces, a part of WorldState (state.py says how the rule modules are composed)."""

    def troops_left(self, p: int) -> int:
        pieces = self.cfg.pieces
        if pieces is None:
            return UNLIMITED
        in_play = sum(compress(self.troops, map(p.__eq__, self.owner))) + 10 * self.lasers[p]
        waiting = self.placing[0] if p == self.player else 0
        return pieces.troop_discs + 10 * pieces.large_discs - in_play - waiting

    def vessels_left(self, p: int) -> tuple[int, int]:
        """Battleships and submarines left, in one pass over the seas (asked at most decisions of a turn)."""
        pieces = self.cfg.pieces
        if pieces is None:
            return UNLIMITED, UNLIMITED
        bs, subs = self.vessels_fighting(p)
        for t in compress(range(len(self.sea_owner)), map(p.__eq__, self.sea_owner)):
            bs += self.bs[t]
            subs += self.subs[t]
        if p == self.player:
            bs += self.placing[1]
            subs += self.placing[2]
        return pieces.battleships - bs, pieces.submarines - subs

    def laser_fits(self, p: int) -> bool:
        """A laser needs a large disc that is neither a laser already nor needed for the player's troops."""
        pieces = self.cfg.pieces
        return pieces is None or (self.lasers[p] < pieces.large_discs and self.troops_left(p) >= 10)

    def card_gift(self, p: int, card: CardSpec) -> list[int]:
        """The troops, battleships and submarines a reinforcement card gives: as many as the set has left."""
        battleships, submarines = self.vessels_left(p) if card.battleships or card.submarines else (0, 0)
        return [
            min(card.troops, self.troops_left(p)) if card.troops else 0,
            min(card.battleships, battleships),
            min(card.submarines, submarines),
        ]
