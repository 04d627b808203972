"""JSON for people and browsers: the pitch as anyone may see it (nothing is hidden in ULTIMADE), and
the legal moves as things to click (a field, or a button). Field names are absolute ('e7'); `col` and
`row` are 0-based with row 0 at team A's back line, so a drawing puts row 17 on top."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultimade.actions import DONE, NO_ROLL, to_field
from ultimata.envs.ultimade.board import COL, FIELDS, LENGTH, NAMES, NEIGHBOURS, ROW, WIDTH
from ultimata.envs.ultimade.explain import roll_rule, run_warning, why_not
from ultimata.envs.ultimade.phases import MONSTER, OVER, PHASES, PLACE, PULL, RUN, SELECT, THROW
from ultimata.envs.ultimade.players import PLAYER_NAMES, TEAMS

if TYPE_CHECKING:
    from ultimata.envs.ultimade.state import UltimadeState

PHASE_KEYS = {PLACE: "place", PULL: "pull", SELECT: "select", RUN: "run", THROW: "throw", MONSTER: "monster",
              OVER: "over"}
"""Each phase as a word the page's script switches on (envs/ultimade/view.js)."""


def _spot(f: int) -> dict[str, Any]:
    return {"field": NAMES[f], "col": COL[f], "row": ROW[f]}


def view(state: UltimadeState, seat: int | None) -> dict[str, Any]:
    """The whole board; `seat` only says whose screen it is (None: a spectator)."""
    over = state.phase == OVER
    defenders = state.team_bb[1 - state.offense]
    players = []
    for p, f in enumerate(state.pos):
        if f < 0:
            continue
        players.append(
            {
                "id": PLAYER_NAMES[p],
                "team": p >> 2,
                **_spot(f),
                "has_disc": p == state.holder,
                "ran": bool(state.moved >> p & 1),
                "runner": p == state.runner,
                "marked": p >> 2 == state.offense and bool(NEIGHBOURS[f] & defenders),
            }
        )
    disc = None
    if state.disc >= 0:
        disc = {**_spot(state.disc), "on_ground": state.holder < 0}
    throw = None
    if state.last_throw:
        throw = {"from": _spot(state.last_throw[0]), "to": _spot(state.last_throw[1])}
    cfg = state.game.config
    return {
        "seat": seat,
        "width": WIDTH,
        "length": LENGTH,
        "endzone_depth": cfg.endzone_depth,
        "teams": list(TEAMS),
        "players": players,
        "disc": disc,
        "last_throw": throw,
        "score": list(state.score),
        "points_to_win": cfg.points_to_win,
        "cycle": state.cycle,
        "max_cycles": cfg.max_cycles,
        "offense": state.offense,
        "phase": PHASES[state.phase],
        "phase_key": PHASE_KEYS[state.phase],
        "to_move": None if over else state.current_player,
        "holder": PLAYER_NAMES[state.holder] if state.holder >= 0 else None,
        "throw_options": _throw_options(state),
        "must_run_to_disc": state.phase in (SELECT, RUN) and state.chase >= 0,
        "why_not": _why_not(state, seat),
        "roll_rule": roll_rule(state) if cfg.monster_defense else None,
        "only_runner": PLAYER_NAMES[state.marker_only] if state.marker_only >= 0 else None,
        "surplus_markers_must_leave": bool(state.surplus_markers()),
        "last_roll": state.last_roll or None,
        "last_event": state.last_event,
        "over": over,
        "winners": ([state.winner] if state.winner >= 0 else [0, 1]) if over else [],
    }


def _throw_options(state: UltimadeState) -> list[dict[str, Any]] | None:
    """Whom the holder could throw to if the throw came now (None: nobody holds the disc). Empty in a
    running step warns that the disc turns over unless a lane opens before the throw."""
    if state.holder < 0 or state.phase not in (SELECT, RUN, THROW):
        return None
    return [{"id": PLAYER_NAMES[q], **_spot(state.pos[q])} for q in state.receivers()]


def _why_not(state: UltimadeState, seat: int | None) -> dict[str, str]:
    """For the seat to move: each field that is not a legal choice now, and the rule that keeps it out."""
    if seat is None or seat != state.current_player:
        return {}
    return {NAMES[f]: reason for f, reason in why_not(state).items()}


def moves(state: UltimadeState) -> list[dict[str, Any]]:
    """The current player's legal moves: a click on a field (with what it means now) or a button."""
    seat = state.current_player
    kind = PHASE_KEYS[state.phase]
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < FIELDS:
            f = to_field(action, seat)
            move.update(target="field", kind=kind, **_spot(f))
            if state.phase == RUN and run_warning(state, f):
                move["leaves_no_free_team_mate"] = True
        else:
            move.update(target="button", kind="done" if action == DONE else "no_roll" if action == NO_ROLL else "")
        out.append(move)
    return out
