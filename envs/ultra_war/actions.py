"""The fixed action space (1050 actions), seat-relative: player_1 sees the map turned 180 degrees, so
every seat plays "up" the board. Field-indexed verbs use the field as seen by the acting seat.

    [0, 144)      STEP to the neighbouring field f
    [144, 576)    ATTACK with attack slot s (0, 1: the character's own; 2: its equipped weapon) at f
    [576, 720)    TARGET field f (a card's character or feat target; a Breach; a crystal given to f)
    [720, 864)    USE the ability of the own power source at f (a token there, or the crystal its bearer there
                  is equipped with)
    [864, 1008)   TRANSFER one reserve point to the character at f (Magic / Energy Transfer)
    1008 + s      SELECT army slot s (0..7) to activate; in the draft, draft roster character s; in set-up, the
                  roll's winner goes first (s = 0) or second (s = 1)
    1016 + d      FACE direction d (0..7, seat-relative) and end the activation
    1024          END the activation keeping the facing
    1025          CHARGE (declare before the first step)
    1026          FLY: take off (a grounded flyer) or land (a flying one)
    1027          PAUSE the activation: play cards, use power sources, transfer (PASS resumes it)
    1028          END TURN (in set-up: done paying, redraw to 5; in the draft: done drafting)
    1029 + h      PLAY hand card h (0..7)
    1037 + h      DISCARD hand card h (discard event)
    1045 + k      DROP the active character's attached equipment k (0 weapon, 1 second weapon, 2 armour,
                  3 standard)
    1049          PASS (a quick-enhancement window; a deviation; resume a paused activation)
"""

from __future__ import annotations

from ultimata.envs.ultra_war.content import HAND_SLOTS, MAX_ARMY
from ultimata.envs.ultra_war.geometry import DIR_NAMES, FIELDS, name

STEP = 0
ATTACK = FIELDS
ATTACK_SLOTS = 3
TARGET = ATTACK + ATTACK_SLOTS * FIELDS
USE = TARGET + FIELDS
TRANSFER = USE + FIELDS
SELECT = TRANSFER + FIELDS
FACE = SELECT + MAX_ARMY
END_ACT = FACE + 8
CHARGE = END_ACT + 1
FLY = CHARGE + 1
PAUSE = FLY + 1
END_TURN = PAUSE + 1
PLAY = END_TURN + 1
DISCARD = PLAY + HAND_SLOTS
DROP = DISCARD + HAND_SLOTS
GEAR = ("weapon", "weapon2", "armor", "standard")
"""DROP + k drops the piece of equipment in Unit attribute GEAR[k]."""
PASS = DROP + len(GEAR)
NUM_ACTIONS = PASS + 1


def to_field(rel: int, seat: int) -> int:
    """Seat-relative field -> absolute (an involution)."""
    return rel if seat == 0 else FIELDS - 1 - rel


def to_dir(rel: int, seat: int) -> int:
    return rel if seat == 0 else (rel + 4) % 8


_FIELD_VERBS = ((ATTACK, "step to"), (TARGET, "attack"), (USE, "target"), (TRANSFER, "use the power source at"),
                (SELECT, "transfer a point to"))


def describe(action: int, seat: int) -> str:
    if action < SELECT:
        for end, verb in _FIELD_VERBS:
            if action < end:
                if verb == "attack":
                    slot, f = divmod(action - ATTACK, FIELDS)
                    return f"attack {name(to_field(f, seat))} with attack {slot}"
                return f"{verb} {name(to_field(action % FIELDS, seat))}"
    if action < FACE:
        return f"select slot {action - SELECT}"
    if action < END_ACT:
        return f"face {DIR_NAMES[to_dir(action - FACE, seat)]} and end"
    if action == END_ACT:
        return "end activation"
    if action == CHARGE:
        return "charge"
    if action == FLY:
        return "take off or land"
    if action == PAUSE:
        return "pause the activation"
    if action == END_TURN:
        return "end turn"
    if action < DISCARD:
        return f"play hand card {action - PLAY}"
    if action < DROP:
        return f"discard hand card {action - DISCARD}"
    if action < PASS:
        return f"drop the {('weapon', 'second weapon', 'armour', 'standard equipment')[action - DROP]}"
    if action == PASS:
        return "pass"
    return f"action {action} (out of range)"
