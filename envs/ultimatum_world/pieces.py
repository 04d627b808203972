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


def vessels_left(s: WorldState, p: int, battleships: bool) -> int:
    pieces = s.cfg.pieces
    if pieces is None:
        return UNLIMITED
    kind = 0 if battleships else 1
    afloat = sum(compress(s.bs if battleships else s.subs, map(p.__eq__, s.sea_owner)))
    waiting = s.placing[1 + kind] if p == s.player else 0
    fighting = s.vessels_fighting(p)[kind]
    return (pieces.battleships if battleships else pieces.submarines) - afloat - fighting - waiting


def laser_fits(s: WorldState, p: int) -> bool:
    """A laser needs a large disc that is neither a laser already nor needed for the player's troops."""
    pieces = s.cfg.pieces
    return pieces is None or (s.lasers[p] < pieces.large_discs and troops_left(s, p) >= 10)


def card_gift(s: WorldState, p: int, card: CardSpec) -> list[int]:
    """The troops, battleships and submarines a reinforcement card gives: as many as the set has left."""
    return [
        min(card.troops, troops_left(s, p)) if card.troops else 0,
        min(card.battleships, vessels_left(s, p, True)) if card.battleships else 0,
        min(card.submarines, vessels_left(s, p, False)) if card.submarines else 0,
    ]
