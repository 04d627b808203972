"""JSON for people and browsers: the map and the pawns as anyone may see them, the viewer's own hand,
and the legal moves as things to click (a field with what it means, or a button)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import COL, DIR_NAMES, FIELDS, ROW, name

if TYPE_CHECKING:
    from ultimata.envs.ultra_war.state import UltraWarState


def _spot(f: int) -> dict[str, Any]:
    return {"field": name(f), "col": COL[f], "row": ROW[f]}


def view(state: UltraWarState, seat: int | None) -> dict[str, Any]:
    from ultimata.envs.ultra_war.phases import OVER, PHASES

    b = state.board
    cells = []
    for f in range(FIELDS):
        kind = ("wall" if b.solid(f, state.breached) else "door" if b.door[f] else "obstruction" if b.obstruction[f]
                else "stairs" if b.stairs[f] else "floor")
        cells.append({"kind": kind, "level": b.level[f], "objective": b.objective[f], "escape": b.escape[f]})
    pawns = [{"side": u.side, "slot": u.slot, "name": u.name, **_spot(u.pos), "facing": DIR_NAMES[u.facing],
              "life": u.life, "max_life": u.ch.life, "turned": u.turned, "flying": u.flying,
              "general": u is state.active_general(u.side),
              "gear": [x for x in (u.weapon, u.weapon2, u.armor, u.standard) if x],
              "crystals": len(state.borne(u))}
             for u in state.units if u.on_map]
    tokens = [{"side": s.side, "kind": s.kind, "name": s.name, "points": s.points, **_spot(s.pos)}
              for s in state.sources if s.pos >= 0 and (s.kind == "crystal" or s.life > 0)]
    over = state.phase == OVER
    return {
        "kind": "skirmish",
        "seat": seat,
        "size": 12,
        "cells": cells,
        "pawns": pawns,
        "tokens": tokens,
        "factions": list(state.game.scenario.factions),
        "round": state.round,
        "phase": PHASES[state.phase],
        "power": [state.pool(0), state.pool(1)],
        "hand_sizes": [len(h) for h in state.hands],
        "hand": list(state.hands[seat]) if seat is not None else [],
        "pile": len(state.decks[seat]) if seat is not None else 0,
        "events": list(state.events[-6:]),
        "to_move": None if over else state.current_player,
        "over": over,
        "winners": ([state.winner] if state.winner in (0, 1) else [0, 1]) if over else [],
    }


def moves(state: UltraWarState) -> list[dict[str, Any]]:
    seat = state.current_player
    out = []
    for action in state.legal_actions():
        move: dict[str, Any] = {"action": action, "label": state.action_to_string(action)}
        if action < A.SELECT:
            rel = action % FIELDS
            kind = ("step" if action < A.ATTACK else "attack" if action < A.TARGET else "target" if action < A.USE
                    else "use" if action < A.TRANSFER else "transfer")
            move.update(target="field", kind=kind, **_spot(A.to_field(rel, seat)))
        else:
            move.update(target="button", kind="")
        out.append(move)
    return out
