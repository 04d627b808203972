"""A move in words: 'run B2 e7->g9', 'throw B1 -> B3 at g11' (field names are absolute, row 1 = A's end).
ULTIMADE hides nothing, so every seat reads the same words (the engine's narration adds who moved)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimade.actions import DONE, NO_ROLL, to_field
from ultimata.envs.ultimade.board import FIELDS, name
from ultimata.envs.ultimade.explain import run_warning
from ultimata.envs.ultimade.phases import MONSTER, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState


def describe_action(state: UltimadeState, action: int) -> str:
    """E.g. 'run B2 e7->g9', 'throw B1 -> B3 at g11'; field names are absolute (row 1 = A's end). A run
    or 'done' that leaves the disc holder with no free team-mate says so: the throw, or the turn, follows
    by itself."""
    if action == DONE:
        return "done (who has not run stays)" + _done_warning(state)
    if action == NO_ROLL:
        scores = state.phase == MONSTER and state.game.attack_zone[state.offense] >> state.disc & 1
        return "no Monster-Defense roll" + (" (the catch scores)" if scores else "")
    if not 0 <= action < FIELDS:
        return f"unknown action {action}"
    seat = max(state.to_move, 0)
    f = to_field(action, seat)
    where = name(f)
    at = state.pos.index(f) if f in state.pos else -1
    who = PLAYER_NAMES[at] if at >= 0 else "nobody"
    phase = state.phase
    if phase == PLACE:
        slot = state.pos[4 * seat : 4 * seat + 4].count(-1)
        return f"place {TEAMS[seat]}{5 - slot} at {where}" if slot else f"place at {where}"
    if phase == PULL and state.holder >= 0:
        return f"pull {PLAYER_NAMES[state.holder]} -> {where}"
    if phase == SELECT:
        return f"pick {who} at {where} to run"
    if phase == RUN and state.runner >= 0:
        return f"run {PLAYER_NAMES[state.runner]} {name(state.pos[state.runner])}->{where}" + run_warning(state, f)
    if phase == THROW and state.holder >= 0:
        return f"throw {PLAYER_NAMES[state.holder]} -> {who} at {where}"
    if phase == MONSTER and state.holder >= 0:
        return f"Monster-Defense: {who} at {where} rolls the die ({_roll_outcomes(state, who)})"
    return f"field {where}"


def _done_warning(state: UltimadeState) -> str:
    """After the defense's step the holder throws, or turns the disc over if nobody is free: say which."""
    if state.phase != SELECT or state.holder < 0 or state.receivers():
        return ""
    holder = PLAYER_NAMES[state.holder]
    if state.to_move == state.offense:
        return f" - {holder} has no free team-mate: unless one is free after the defense's runs, a turn follows"
    return f" - {holder} has no free team-mate: a turn, {PLAYER_NAMES[state.turn_taker()]} takes the disc"


def _roll_outcomes(state: UltimadeState, marker: str) -> str:
    cfg = state.game.config
    turn = " or ".join(str(f) for f in cfg.monster_turn_faces)
    rest = ", ".join(str(f) for f in range(1, 7) if f not in cfg.monster_turn_faces) or "nothing else"
    if state.game.attack_zone[state.offense] >> state.disc & 1:
        return f"{turn}: a turn, no point; {rest}: the catch scores"
    catcher = PLAYER_NAMES[state.holder]
    return f"{turn}: a turn, {marker} takes the disc; {rest}: {catcher} keeps it and only {marker} may run next step"
