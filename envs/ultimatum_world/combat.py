"""How each fight comes out, as small pure functions over dice faces drawn from the game's `Rng`
(so forced dice script any fight in tests). The book's rules for each are quoted in the rules doc."""

from __future__ import annotations

from collections.abc import Sequence

from ultimata.envs.core.rng import Rng

BATTLESHIP, SUBMARINE = 0, 1


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


def naval_exchange(kind: int, green: str, defender_battleships: int) -> tuple[int, int, int]:
    """One green-die roll. The attacker's vessel aims at a battleship while the defender has one (ours:
    the book lets the attacker announce the target). Returns (attacker losses, defender battleship
    losses, defender submarine losses)."""
    target = BATTLESHIP if defender_battleships else SUBMARINE
    hit = (1, 0) if target == BATTLESHIP else (0, 1)
    if green == "WIN" or (green == "DRAW" and kind == SUBMARINE):  # a submarine's draw goes to the attacker
        return (0, *hit)
    if green == "LOSE":
        return 1, 0, 0
    return (1, *hit) if target == BATTLESHIP else (1, 0, 0)  # battleship draw: both lose vs a battleship


def naval_battle(
    rng: Rng, green: Sequence[str], kind: int, count: int, battleships: int, submarines: int
) -> tuple[int, int, int]:
    """Fought to the end (the book: 'must attack until successful or defeated'). Returns what is left:
    (attacking vessels, defending battleships, defending submarines)."""
    while count and (battleships or submarines):
        lost_a, lost_b, lost_s = naval_exchange(kind, str(roll(rng, green)), battleships)
        count, battleships, submarines = count - lost_a, battleships - lost_b, submarines - lost_s
    return count, battleships, submarines


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
