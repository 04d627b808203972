"""Ultimatum's scripted bot: sets up around the Oil Alliance, puts every troop on its strongest front,
attacks weak neighbours (Oil nations and alliance-completing nations first) until the odds turn, bombs
and lasers the nation it is about to attack, keeps its fleets home, and defends with every card it holds.
Stateless: each decision re-derives the same plan from the state, so a multi-step move stays coherent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ultimata.envs.ultimatum_world import actions as A
from ultimata.envs.ultimatum_world.attacks import NAVAL
from ultimata.envs.ultimatum_world.cards import AIRLIFT, HELICOPTER_COMMANDO, JET_BOMBER
from ultimata.envs.ultimatum_world.content import CARD_INDEX, OIL, world
from ultimata.envs.ultimatum_world.phases import BATTLE, MOVE_IN, SETUP, SETUP_FLEET, WINDOW

if TYPE_CHECKING:
    from ultimata.envs.core.rng import Rng
    from ultimata.envs.ultimatum_world.state import WorldState

W = world()
WANTED = [
    CARD_INDEX[k]
    for k in ("troops_10", "troops_5", "jet_bomber", "helicopter_commando", "battleships_2", "submarine_1")
]
"""The attacker cards the bot plays, best first."""


def _value(s: WorldState, p: int, x: int) -> float:
    """How much p wants nation x: Oil first, then alliances p is close to completing, then Worldpowers."""
    members = W.members[W.alliance[x]]
    held = sum(1 for y in members if s.owner[y] == p)
    return (3.0 if W.alliance[x] == OIL else 1.0) + 2.0 * held / len(members) + (0.5 if W.worldpower[x] else 0)


def _attack_plan(s: WorldState, p: int) -> tuple[int, int] | None:
    """The best (from, target) with good odds: enough troops to win and a valuable target."""
    best, plan = 0.0, None
    for a in s.nations_of(p):
        for b in s.attack_targets(p, a):
            edge = s.troops[a] - 1 - s.troops[b]
            if edge >= 2:
                score = _value(s, p, b) * 4 + edge
                if score > best:
                    best, plan = score, (a, b)
    return plan


def _front(s: WorldState, p: int) -> int:
    """The nation that should get reinforcements: the one with the best attack, else the most threatened
    (-1 when p holds no nation)."""
    plan = _attack_plan(s, p)
    if plan:
        return plan[0]
    mine = s.nations_of(p)
    if not mine:
        return -1

    def threat(a: int) -> float:
        foes = [b for b in W.borders[a] if s.owner[b] not in (-1, p)]
        return max((s.troops[b] for b in foes), default=-1) - s.troops[a] + _value(s, p, a)

    return max(mine, key=lambda a: (threat(a), -a))


def _setup_pick(s: WorldState, p: int, legal: list[int]) -> int:
    if s.phase == SETUP_FLEET:
        mine = {t for x in s.nations_of(p) for t in W.seas[x]}
        return max(legal, key=lambda a: (a - A.NATIONS in mine, -a))
    return max(legal, key=lambda a: (_value(s, p, a) + (2 if W.worldpower[a] else 0), -a))


def _pending(s: WorldState, p: int, legal: list[int]) -> int:
    verb, args = s.pending[0], s.pending[1:]
    if verb == A.ATTACK:
        plan = _attack_plan(s, p)
        if plan and (not args and plan[0] in legal):
            return plan[0]
        if plan and args and plan[1] in legal:
            return plan[1]
        return max(legal, key=lambda b: (-s.troops[b], -b))
    if verb == A.LASER or verb in (A.CARD + JET_BOMBER, A.CARD + HELICOPTER_COMMANDO):
        plan = _attack_plan(s, p)
        if plan and plan[1] in legal and verb != A.CARD + HELICOPTER_COMMANDO:
            return plan[1]
        nations = [x for x in legal if x < A.NATIONS]
        if verb == A.CARD + HELICOPTER_COMMANDO:
            return min(nations, key=lambda x: (s.troops[x] - 3 * _value(s, p, x), x))
        return max(nations, key=lambda x: (s.troops[x], -x)) if nations else legal[0]
    if verb == A.CARD + AIRLIFT:
        if legal[0] >= A.AMOUNT_ONE:
            return A.AMOUNT_HALF
        if len(args) == 0:
            return max(legal, key=lambda x: (s.troops[x], -x))
        front = _front(s, p)
        return front if front in legal else legal[0]
    if verb in (A.MOVE_BATTLESHIPS, A.MOVE_SUBMARINES):
        return A.AMOUNT_ALL if legal[0] >= A.AMOUNT_ONE else legal[0]
    front = _front(s, p)
    if front in legal:
        return front
    return legal[0]


def _defend(s: WorldState, legal: list[int]) -> int:
    for kind in ("anti_aircraft_missile", "minefield", "ocean_mine", "airlift"):
        if A.CARD + CARD_INDEX[kind] in legal:
            return A.CARD + CARD_INDEX[kind]
    if A.LASER in legal:
        return A.LASER
    return A.DONE


def choose_action(state: WorldState, rng: Rng) -> int:
    s, p = state, state.current_player
    legal = s.legal_actions()
    if s.phase in SETUP:
        return _setup_pick(s, p, legal)
    if s.transferring() and not s.pending:
        return A.DONE
    if s.placing_now() and not s.pending:
        if s.place_at >= 0:
            return A.AMOUNT_ALL
        front = _front(s, p)
        return front if front in legal else legal[0]
    if s.pending:
        if s.phase == WINDOW and s.pending[0] == A.LASER:
            return max(legal, key=lambda x: (s.troops[x] if x < A.NATIONS else s.bs[x - A.NATIONS], -x))
        if s.phase == WINDOW:
            return A.AMOUNT_HALF if legal[0] >= A.AMOUNT_ONE else max(legal, key=lambda x: (s.troops[x], -x))
        return _pending(s, p, legal)
    if s.phase == WINDOW:
        return _defend(s, legal)
    if s.phase == BATTLE:
        _, _, _, target, source = s.attack
        if s.attack[0] == NAVAL:
            return A.BLITZ
        good = s.troops[source] - 1 > s.troops[target]
        return A.BLITZ if good else (A.STOP if A.STOP in legal else A.ROLL)
    if s.phase == MOVE_IN:
        return A.AMOUNT_ALL
    for verb in (A.BUY_LASER, A.BUY_TROOPS_ALL):
        if verb in legal:
            return verb
    for kind in WANTED:
        if A.CARD + kind in legal and (
            kind != HELICOPTER_COMMANDO
            or not s.nations_of(p)
            or any(s.troops[x] <= 4 for x in range(A.NATIONS) if s.owner[x] not in (-1, p))
        ):
            if kind == JET_BOMBER and not _attack_plan(s, p):
                continue
            return A.CARD + kind
    plan = _attack_plan(s, p)
    if plan and A.LASER in legal and s.troops[plan[1]] >= 6:
        return A.LASER
    if plan and A.ATTACK in legal:
        return A.ATTACK
    return A.DONE
