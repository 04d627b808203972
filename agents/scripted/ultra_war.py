"""Ultra War's scripted bot: attack when it can (the weakest target first, back stabs and ranged shots
preferred by expected margin), otherwise walk towards the nearest enemy (or the objective), keep the
active general behind the line, play affordable cards, pass quick windows only when nothing helps."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war.geometry import FIELDS, chebyshev

if TYPE_CHECKING:
    from ultimata.envs.core.rng import Rng
    from ultimata.envs.ultra_war.state import UltraWarState


def choose_action(state: UltraWarState, rng: Rng) -> int:
    legal = state.legal_actions()
    seat = state.current_player
    to_abs = (lambda f: f) if seat == 0 else (lambda f: FIELDS - 1 - f)
    attacks = [a for a in legal if A.ATTACK <= a < A.TARGET]
    if attacks:
        def weakness(a: int) -> tuple[int, int]:
            f = to_abs((a - A.ATTACK) % FIELDS)
            target = state.unit_at(f)
            return (target.life if target else 9, -(a - A.ATTACK) // FIELDS)
        return min(attacks, key=weakness)
    plays = [a for a in legal if A.PLAY <= a < A.DISCARD]
    if plays:
        return plays[0]
    targets = [a for a in legal if A.TARGET <= a < A.SELECT]
    if targets and state.phase != 2:
        def target_value(a: int) -> int:
            u = state.unit_at(to_abs(a - A.TARGET))
            return u.life if u is not None and u.side != seat else -(u.ch.offense if u else 0)
        return min(targets, key=target_value)
    if A.DISCARD in legal:
        return A.DISCARD
    selects = [a for a in legal if A.SELECT <= a < A.FACE]
    if selects:
        general = state.active_general(seat)
        order = sorted(selects, key=lambda a: next(u for u in state.side_units(seat) if u.slot == a - A.SELECT)
                       is general)
        return order[0]
    steps = [a for a in legal if a < A.ATTACK]
    if state.phase == 2 and steps:
        u = state.units[state.active]
        enemies = [e.pos for e in state.units if e.on_map and e.side != seat]
        goals = [f for f in range(FIELDS) if state.board.objective[f]] or enemies
        if u is state.active_general(seat) and len(state.side_units(seat)) > 1:
            goals = enemies
            keep = 3
        else:
            keep = 1

        def closeness(a: int) -> int:
            f = to_abs(a)
            return abs(min((chebyshev(f, g) for g in goals), default=0) - keep)
        best = min(steps, key=closeness)
        here = abs(min((chebyshev(u.pos, g) for g in goals), default=0) - keep)
        if closeness(best) < here:
            return best
    if state.phase == 2:
        u = state.units[state.active]
        enemies = [e for e in state.units if e.on_map and e.side != seat]
        if enemies:
            near = min(enemies, key=lambda e: chebyshev(e.pos, u.pos))
            from ultimata.envs.ultra_war.geometry import direction
            d = direction(u.pos, near.pos)
            rel = d if seat == 0 else (d + 4) % 8
            if A.FACE + rel in legal:
                return A.FACE + rel
        return A.END_ACT
    if A.PASS in legal:
        return A.PASS
    return A.END_TURN if A.END_TURN in legal else legal[0]
