"""Why not: the rule that keeps a field out of the current decision, in a person's words. The web view
shows it on a field that is not a legal move (hover or click), and the turn's message names what blocked
each team-mate, so nobody loses the disc to a rule they could not see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimade.actions import from_field
from ultimata.envs.ultimade.board import BETWEEN, BIT, FIELDS, LENGTH, NAMES, NEIGHBOURS, chebyshev
from ultimata.envs.ultimade.phases import MONSTER, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.game import UltimadeGame
    from ultimata.envs.ultimade.state import UltimadeState


def _who(state: UltimadeState, f: int) -> str:
    return PLAYER_NAMES[state.pos.index(f)] if f in state.pos else ""


def _rows(game: UltimadeGame, team: int) -> str:
    depth = game.config.endzone_depth
    return f"rows 1-{depth}" if team == 0 else f"rows {LENGTH + 1 - depth}-{LENGTH}"


def throw_blocked(state: UltimadeState, origin: int, target: int, team: int) -> str:
    """Why a throw of `team` from `origin` to `target` is not legal ('' when it is)."""
    lane = BETWEEN[origin][target]
    if not lane:
        if chebyshev(origin, target) == 1:
            return f"right next to {NAMES[origin]}: a throw must go over at least one field"
        return f"not on a straight line (row, column or diagonal) from {NAMES[origin]}"
    opponents = lane & state.team_bb[1 - team]
    if opponents:
        names = ", ".join(f"{_who(state, f)} on {NAMES[f]}" for f in range(FIELDS) if opponents & BIT[f])
        return f"{names} in the way: a throw may not pass over an opponent"
    if state.game.config.throw_needs_free_field and not lane & ~(state.team_bb[0] | state.team_bb[1]):
        return "only team-mates in between: a throw must go over at least one free field"
    return ""


def no_free_team_mate(state: UltimadeState) -> str:
    """What blocks each team-mate of the holder: 'A2 on e8: B1 on e6 in the way: ...; A3 on b1: ...'."""
    h, team = state.holder, state.offense
    parts = []
    for q in range(4 * team, 4 * team + 4):
        if q != h:
            why = throw_blocked(state, state.pos[h], state.pos[q], team)
            parts.append(f"{PLAYER_NAMES[q]} on {NAMES[state.pos[q]]}: {why}")
    return "; ".join(parts)


def run_warning(state: UltimadeState, f: int) -> str:
    """' - then A1 has no free team-mate' when the picked runner's run to `f` leaves the disc holder with
    nobody to throw to ('' otherwise): the throw, or the turn, follows by itself."""
    if state.holder < 0 or state.receivers(run=(state.runner, f)):
        return ""
    return f" - then {PLAYER_NAMES[state.holder]} has no free team-mate"


def roll_rule(state: UltimadeState) -> str:
    """What the Monster-Defense die does, as the rules of this game have it."""
    cfg = state.game.config
    turn = " or ".join(str(f) for f in cfg.monster_turn_faces)
    other = [f for f in range(1, 7) if f not in cfg.monster_turn_faces]
    rest = ", ".join(str(f) for f in other) or "nothing"
    endzone = " (a catch in the endzone stands and scores)" if cfg.monster_defense_in_endzone else ""
    return (f"Monster-Defense die: {turn} is a turn, the marker who rolled takes the disc; {rest} is no turn: "
            f"the catcher keeps the disc{endzone}, and in the defense's next step only the marker who rolled "
            f"may run, the other three keep their places")


def why_not(state: UltimadeState) -> dict[int, str]:
    """Every field that is not a legal choice of the current decision, with the rule that keeps it out."""
    legal = {a for a in state.legal_actions() if a < FIELDS}
    seat = state.current_player
    explain = _BY_PHASE.get(state.phase)
    if explain is None:
        return {}
    return {f: explain(state, f) for f in range(FIELDS) if from_field(f, seat) not in legal}


def _place(state: UltimadeState, f: int) -> str:
    team = state.current_player
    if f in state.pos:
        return f"{_who(state, f)} stands there"
    if not BIT[f] & state.game.endzone[team]:
        return f"set up in your own endzone ({_rows(state.game, team)})"
    return ("the first player you place holds the disc and pulls, and no straight pull could fly from here "
            "to an empty field of the other endzone")


def _pull(state: UltimadeState, f: int) -> str:
    receiver = state.offense
    if not BIT[f] & state.game.endzone[receiver]:
        return f"the pull lands in team {TEAMS[receiver]}'s endzone ({_rows(state.game, receiver)})"
    if f in state.pos:
        return f"{_who(state, f)} stands there"
    return "pull: " + throw_blocked(state, state.pos[state.holder], f, 1 - receiver)


def _select(state: UltimadeState, f: int) -> str:
    team = state.current_player
    if f not in state.pos:
        return "pick one of your players first, then the field he runs to"
    p = state.pos.index(f)
    who = PLAYER_NAMES[p]
    if p >> 2 != team:
        return f"{who} plays for the other team"
    if p == state.holder:
        return f"{who} holds the disc, and the player with the disc must not move"
    if state.moved >> p & 1:
        return f"{who} has run already in this step"
    if team != state.offense and state.marker_only >= 0:
        return f"after the failed Monster-Defense roll only {PLAYER_NAMES[state.marker_only]} may run in this step"
    if team == state.offense and state.chase >= 0:
        return (f"the disc lies on {NAMES[state.disc]}: first a player who gets as close to it as any run can "
                f"(within {state.chase} of it) must run")
    return f"{who} has no field to run to"


def _run(state: UltimadeState, f: int) -> str:
    p = state.runner
    start, cfg = state.pos[p], state.game.config
    who = PLAYER_NAMES[p]
    if f == start:
        return f"{who} stands here: a run ends on another field"
    if f in state.pos:
        return f"{_who(state, f)} stands there: a run ends on an empty field"
    steps = chebyshev(start, f)
    if steps > cfg.run_length:
        return f"{steps} fields from {NAMES[start]}: a run is {cfg.run_length} fields at most"
    defending = p >> 2 != state.offense
    if defending and state.holder < 0 and f == state.disc:
        return "the disc lies here: defenders may not stand on it"
    if defending:
        marked = _marked_by_another(state, p, f)
        if marked:
            return marked
    if not defending and state.chase >= 0:
        return (f"the first run must get as close to the disc on {NAMES[state.disc]} as any run can: "
                f"within {state.chase} of it")
    through = {"empty": "empty fields", "team": "empty fields and team-mates", "any": "any fields"}[cfg.run_through]
    return f"no way there in {cfg.run_length} steps through {through}"


def _marked_by_another(state: UltimadeState, p: int, f: int) -> str:
    """The marking rule keeping defender p off field f ('' if it does not)."""
    offense = state.offense
    defenders = state.team_bb[1 - offense] & ~BIT[state.pos[p]]
    for o in range(4 * offense, 4 * offense + 4):
        if NEIGHBOURS[state.pos[o]] & BIT[f]:
            others = NEIGHBOURS[state.pos[o]] & defenders
            if others:
                marker = next(_who(state, g) for g in range(FIELDS) if others & BIT[g])
                return (f"{PLAYER_NAMES[o]} on {NAMES[state.pos[o]]} is marked by {marker} already: only one "
                        f"defender may stand next to a player of the other team")
    return ""


def _throw(state: UltimadeState, f: int) -> str:
    h = state.holder
    if f == state.pos[h]:
        return f"{PLAYER_NAMES[h]} holds the disc"
    if f in state.pos and state.pos.index(f) >> 2 == state.offense:
        return f"{_who(state, f)} is not free: " + throw_blocked(state, state.pos[h], f, state.offense)
    return "throw to a free team-mate"


def _monster(state: UltimadeState, f: int) -> str:
    catcher = PLAYER_NAMES[state.holder]
    return f"only a defender next to the catcher {catcher} on {NAMES[state.disc]} may roll the Monster-Defense die"


_BY_PHASE = {PLACE: _place, PULL: _pull, SELECT: _select, RUN: _run, THROW: _throw, MONSTER: _monster}
