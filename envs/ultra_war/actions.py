"""The fixed action space (756 actions), seat-relative: player_1 sees the map turned 180 degrees, so
every seat plays "up" the board. Field-indexed verbs use the field as seen by the acting seat.

    [0, 144)      STEP to the neighbouring field f
    [144, 576)    ATTACK with attack slot s (0, 1: the character's own; 2: its equipped weapon) at f
    [576, 720)    TARGET field f (a card's character or feat target; a Breach at a door or wall)
    720 + s       SELECT army slot s (0..7) to activate
    728 + d       FACE direction d (0..7, seat-relative) and end the activation
    736           END the activation keeping the facing
    737           CHARGE (declare before the first step)
    738           END TURN (in set-up: done paying, redraw to 5)
    739 + h       PLAY hand card h (0..7)
    747 + h       DISCARD hand card h (discard event)
    755           PASS (a quick-enhancement window)
"""

from __future__ import annotations

from ultimata.envs.ultra_war.content import HAND_SLOTS, MAX_ARMY
from ultimata.envs.ultra_war.geometry import DIR_NAMES, FIELDS, name

STEP = 0
ATTACK = FIELDS
ATTACK_SLOTS = 3
TARGET = ATTACK + ATTACK_SLOTS * FIELDS
SELECT = TARGET + FIELDS
FACE = SELECT + MAX_ARMY
END_ACT = FACE + 8
CHARGE = END_ACT + 1
END_TURN = CHARGE + 1
PLAY = END_TURN + 1
DISCARD = PLAY + HAND_SLOTS
PASS = DISCARD + HAND_SLOTS
NUM_ACTIONS = PASS + 1


def to_field(rel: int, seat: int) -> int:
    """Seat-relative field -> absolute (an involution)."""
    return rel if seat == 0 else FIELDS - 1 - rel


def to_dir(rel: int, seat: int) -> int:
    return rel if seat == 0 else (rel + 4) % 8


def describe(action: int, seat: int) -> str:
    if action < ATTACK:
        return f"step to {name(to_field(action, seat))}"
    if action < TARGET:
        slot, f = divmod(action - ATTACK, FIELDS)
        return f"attack {name(to_field(f, seat))} with attack {slot}"
    if action < SELECT:
        return f"target {name(to_field(action - TARGET, seat))}"
    if action < FACE:
        return f"select slot {action - SELECT}"
    if action < END_ACT:
        return f"face {DIR_NAMES[to_dir(action - FACE, seat)]} and end"
    if action == END_ACT:
        return "end activation"
    if action == CHARGE:
        return "charge"
    if action == END_TURN:
        return "end turn"
    if action < DISCARD:
        return f"play hand card {action - PLAY}"
    if action < PASS:
        return f"discard hand card {action - DISCARD}"
    if action == PASS:
        return "pass"
    return f"action {action} (out of range)"
