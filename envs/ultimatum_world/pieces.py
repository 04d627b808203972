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
    from ultimata.envs.ultimatum_world.state import WorldState

UNLIMITED = 1 << 30


def troops_left(s: WorldState, p: int) -> int:
    pieces = s.cfg.pieces
    if pieces is None:
        return UNLIMITED
    in_play = sum(compress(s.troops, map(p.__eq__, s.owner))) + 10 * s.lasers[p]
    waiting = s.placing[0] if p == s.player else 0
    return pieces.troop_discs + 10 * pieces.large_discs - in_play - waiting


def vessels_left(s: WorldState, p: int) -> tuple[int, int]:
    """Battleships and submarines left, in one pass over the seas (asked at most decisions of a turn)."""
    pieces = s.cfg.pieces
    if pieces is None:
        return UNLIMITED, UNLIMITED
    bs, subs = s.vessels_fighting(p)
    for t in compress(range(len(s.sea_owner)), map(p.__eq__, s.sea_owner)):
        bs += s.bs[t]
        subs += s.subs[t]
    if p == s.player:
        bs += s.placing[1]
        subs += s.placing[2]
    return pieces.battleships - bs, pieces.submarines - subs


def laser_fits(s: WorldState, p: int) -> bool:
    """A laser needs a large disc that is neither a laser already nor needed for the player's troops."""
    pieces = s.cfg.pieces
    return pieces is None or (s.lasers[p] < pieces.large_discs and troops_left(s, p) >= 10)


def card_gift(s: WorldState, p: int, card: CardSpec) -> list[int]:
    """The troops, battleships and submarines a reinforcement card gives: as many as the set has left."""
    battleships, submarines = vessels_left(s, p) if card.battleships or card.submarines else (0, 0)
    return [
        min(card.troops, troops_left(s, p)) if card.troops else 0,
        min(card.battleships, battleships),
        min(card.submarines, submarines),
    ]
