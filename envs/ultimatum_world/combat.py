"""How each fight comes out, as small pure functions over dice faces drawn from the game's `Rng`
(so forced dice script any fight in tests). The book's rules for each are quoted in the rules doc."""

from __future__ import annotations

from collections.abc import Sequence

from ultimata.envs.core.rng import Rng
from ultimata.envs.ultimatum_world.actions import BATTLESHIP, SUBMARINE


def roll(rng: Rng, faces: Sequence) -> object:
    """One die: each face equally likely (a forced roll k gives the k-th face)."""
    return faces[rng.roll(len(faces)) - 1]


def troop_exchange(attacker_roll: int, defender_roll: int) -> tuple[int, int]:
    """Black dice: the lower roll loses one troop; a tie costs both one. Returns (attacker, defender) losses."""
    if attacker_roll == defender_roll:
        return 1, 1
    return (0, 1) if attacker_roll > defender_roll else (1, 0)


def troops_hit(troops: int, amount: int) -> int:
    """Troops a jet bomber or laser removes: the amount rolled, but the last troop always stays."""
    return max(0, min(amount, troops - 1))


def battleships_bombed(battleships: int, red: int) -> int:
    """A jet bomber on ships: the red die halved, in battleships only (never submarines)."""
    return min(red // 2, battleships)


def vessels_lasered(battleships: int, submarines: int, black: int) -> tuple[int, int]:
    """A laser on ships: the black die halved, battleships removed first. Returns (battleships, submarines)."""
    hits = black // 2
    lost_b = min(hits, battleships)
    return lost_b, min(hits - lost_b, submarines)


def naval_exchange(mine: int, theirs: int, green: str) -> tuple[int, int]:
    """One green-die roll of an announced pair: `mine` attacks `theirs` (BATTLESHIP or SUBMARINE).
    Book: WIN, the vessel attacked is lost; LOSE, the attacker's vessel is lost; DRAW, a battleship
    against a battleship both are lost, a battleship against a submarine only the battleship, and a
    submarine's draw goes to the attacker. Returns (attacker's vessels lost, defender's vessels lost)."""
    if green == "WIN" or (green == "DRAW" and mine == SUBMARINE):
        return 0, 1
    if green == "LOSE":
        return 1, 0
    return (1, 1) if theirs == BATTLESHIP else (1, 0)


def commando_battle(rng: Rng, black: Sequence[int], commandos: int, defenders: int) -> tuple[int, int]:
    """A Helicopter Commando raid, fought until one side is gone; a tie at one troop each goes to the
    commando. Returns (commandos left, defenders left)."""
    while commandos and defenders:
        a, d = roll(rng, black), roll(rng, black)
        if a == d and commandos == 1 and defenders == 1:
            return 1, 0
        lost_a, lost_d = troop_exchange(a, d)  # type: ignore[arg-type]
        commandos, defenders = commandos - lost_a, defenders - lost_d
    return commandos, defenders
