"""Ultra War's scripted bot: focus fire (the enemy general and the weakest first, back stabs preferred),
walk into range along steps that draw no free strike, keep the active general a step behind the line,
play affordable cards (gear on the strongest, feats on the weakest enemy), raise quick defences, and go
for the scenario's objective (hold the objective spaces, free the prisoner and run for the exit)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultra_war import actions as A
from ultimata.envs.ultra_war import combat
from ultimata.envs.ultra_war.geometry import FIELDS, chebyshev, direction, manhattan
from ultimata.envs.ultra_war.phases import ACTIVE, DEVIATE, DRAFT, SETUP

if TYPE_CHECKING:
    from ultimata.envs.core.rng import Rng
    from ultimata.envs.ultra_war.state import UltraWarState
    from ultimata.envs.ultra_war.units import Unit


def _rel(seat: int):
    return (lambda f: f) if seat == 0 else (lambda f: FIELDS - 1 - f)


def _target_value(state: UltraWarState, f: int, seat: int) -> float:
    """Lower is better: enemy generals and nearly dead characters first."""
    u = state.unit_at(f)
    if u is None:
        return 50.0
    general = u is state.active_general(u.side) and state.game.scenario.objective == "defeat_general"
    return u.life - (6 if general else 0) - (3 if state.game.scenario.objective == "rescue" and u.imprisoned else 0)


def _threat_ok(state: UltraWarState, u: Unit, f: int) -> bool:
    """From f, could `u` attack an enemy with any of its attacks?"""
    saved = u.pos
    u.pos = f
    try:
        return any(state.attack_targets(u, slot) for slot in range(3) if combat.attack_spec(u, slot) is not None)
    finally:
        u.pos = saved


def _goal_distance(state: UltraWarState, u: Unit, f: int, seat: int) -> float:
    sc = state.game.scenario
    enemies = [e.pos for e in state.units if e.on_map and e.side != seat]
    if sc.objective == "rescue":
        prisoner = state.units[-1]
        if seat == 0 and u is prisoner:
            return min(chebyshev(f, g) for g in range(FIELDS) if state.board.escape[g])
        if seat == 0 and prisoner.imprisoned and prisoner.on_map:
            return chebyshev(f, prisoner.pos) - 1
    if sc.objective == "hold" and u is not state.active_general(seat):
        spots = [g for g in range(FIELDS) if state.board.objective[g]
                 and (state.unit_at(g) is None or state.unit_at(g) is u)]
        if spots:
            return min(chebyshev(f, g) for g in spots)
    if not enemies:
        return 0.0
    ranged = max((s.range for s in u.ch.attacks if s.kind == "ranged"), default=1)
    near = min(manhattan(f, g) if ranged > 1 else chebyshev(f, g) for g in enemies)
    keep = 3 if (u is state.active_general(seat) and sc.objective == "defeat_general") else 0
    return abs(near - max(keep, 1 if ranged == 1 else ranged - 1))


def _activation(state: UltraWarState, legal: list[int], seat: int) -> int:
    rel = _rel(seat)
    u = state.units[state.active]
    attacks = [a for a in legal if A.ATTACK <= a < A.TARGET]
    if attacks:
        def quality(a: int) -> tuple[float, int]:
            f = rel((a - A.ATTACK) % FIELDS)
            target = state.unit_at(f)
            stab = target is not None and combat.is_back_stab(u, target)
            return (_target_value(state, f, seat) - (2 if stab else 0), -((a - A.ATTACK) // FIELDS))
        return min(attacks, key=quality)
    steps = [a for a in legal if a < A.ATTACK]
    if A.FLY in legal and not u.flying and u.steps == 0 and not state.takeoff_strikers(u):
        return A.FLY  # a grounded flyer takes off when it draws no free strike
    if steps and state.over_another(u):  # a flyer above someone must fly on
        return min(steps, key=lambda a: _goal_distance(state, u, rel(a), seat))
    if steps and not (state.game.scenario.objective != "rescue" and u.steps == 0 and _threat_ok(state, u, u.pos)):
        here = _goal_distance(state, u, u.pos, seat)
        safe = [a for a in steps if not state.free_strikers(u, u.pos, rel(a))]
        pool = safe or []
        scored = []
        for a in pool:
            f = rel(a)
            scored.append((0 if _threat_ok(state, u, f) else 1, _goal_distance(state, u, f, seat), a))
        if scored:
            best = min(scored)
            if best[0] == 0 and not _threat_ok(state, u, u.pos) or best[1] < here:
                return best[2]
    enemies = [e for e in state.units if e.on_map and e.side != seat]
    if enemies:
        near = min(enemies, key=lambda e: chebyshev(e.pos, u.pos))
        d = direction(u.pos, near.pos) if near.pos != u.pos else u.facing
        face = A.FACE + (d if seat == 0 else (d + 4) % 8)
        if face in legal:
            return face
    return A.END_ACT


def _draft(state: UltraWarState, legal: list[int], seat: int) -> int:
    """A General first (the most valuable affordable one), then the most valuable character that fits."""
    picks = [a for a in legal if A.SELECT <= a < A.FACE]
    if not picks:
        return A.END_TURN
    chars = state.game.content.characters
    names = state.roster(seat)
    general = state.draft_done_ok(seat)
    return max(picks, key=lambda a: (not general and chars[names[a - A.SELECT]].rank == "General",
                                     chars[names[a - A.SELECT]].value, -a))


def choose_action(state: UltraWarState, rng: Rng) -> int:
    legal = state.legal_actions()
    seat = state.current_player
    rel = _rel(seat)
    if state.phase == ACTIVE:
        return _activation(state, legal, seat)
    if state.phase == DRAFT:
        return _draft(state, legal, seat)
    if state.phase == SETUP and state.choosing:  # the roll won: go first
        return A.SELECT
    if state.phase == DEVIATE:  # the deviated shot: the best enemy, never a friend
        shots = [a for a in legal if A.ATTACK <= a < A.TARGET
                 and (x := state.unit_at(rel((a - A.ATTACK) % FIELDS))) is not None and x.side != seat]
        return min(shots, key=lambda a: _target_value(state, rel((a - A.ATTACK) % FIELDS), seat)) if shots else A.PASS
    plays = [a for a in legal if A.PLAY <= a < A.DISCARD]
    if plays:
        return plays[0]
    uses = [a for a in legal if A.USE <= a < A.SELECT]  # a source's ability, a reserve transfer
    if uses:
        return uses[0]
    targets = [a for a in legal if A.TARGET <= a < A.SELECT]
    if targets:
        def target_rank(a: int) -> float:
            u = state.unit_at(rel(a - A.TARGET))
            if u is None:
                return 99.0
            if u.side != seat:
                return _target_value(state, u.pos, seat)
            return -u.ch.value
        return min(targets, key=target_rank)
    if A.PASS in legal:
        return A.PASS
    discards = [a for a in legal if A.DISCARD <= a < A.PASS]
    if discards:
        return max(discards, key=lambda a: state.card(seat, state.hands[seat][a - A.DISCARD]).cost)
    selects = [a for a in legal if A.SELECT <= a < A.FACE]
    if selects:
        general = state.active_general(seat)
        by_slot = {u.slot: u for u in state.side_units(seat)}
        return min(selects, key=lambda a: (by_slot[a - A.SELECT] is general, a))
    return A.END_TURN if A.END_TURN in legal else legal[0]
